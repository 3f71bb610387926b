/**
 * Drafts: what a form holds that is not saved yet, kept per item in the signed-in profile's
 * offline store (main), so it survives switching rows, views and a restart. Nothing that looks
 * like a secret is ever kept (the key of a field, at any depth, or the draft's own key).
 */
import { z } from 'zod'
import { JsonObject } from './common'
import { SECRET_KEY } from './secretKeys'

export { SECRET_KEY, scrubSecrets } from './secretKeys'

/** A draft's key: the form and the item (`tool-edit:<id>`, `agent-create`). */
export const DraftKey = z
  .string()
  .min(1)
  .max(256)
  .refine((k) => !SECRET_KEY.test(k), 'A draft key never names a secret')

export const DraftSave = z.object({ key: DraftKey, value: JsonObject }).strict()

export interface DraftEntry {
  key: string
  value: Record<string, unknown>
  savedAt: string
}
