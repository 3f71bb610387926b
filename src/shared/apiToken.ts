import { z } from 'zod'
import { Embedded, StrictId, StrictTimestamp, tolerantObject } from './common'

export const ApiTokenStrict = z.object({
  id: StrictId,
  userId: StrictId,
  user: Embedded,
  description: z.string(),
  token: z.string(),
  createdAt: StrictTimestamp
})
export type ApiTokenStrict = z.infer<typeof ApiTokenStrict>

export const ApiToken = tolerantObject({
  userId: z.string(),
  user: z.looseObject({}),
  description: z.string(),
  token: z.string(),
  createdAt: z.string()
})
export type ApiToken = z.infer<typeof ApiToken>

/** What the renderer gets for a listed/cached token: never the value, only a masked preview. */
export type ApiTokenView = { [K in keyof ApiToken as K extends 'token' ? never : K]: ApiToken[K] } & {
  tokenPreview: string | null
}

export { maskToken } from './values'

export const ApiTokenCreate = z.object({
  description: z.string().trim().min(1, 'Describe what the token is for').max(500, 'At most 500 characters')
})
export type ApiTokenCreate = z.input<typeof ApiTokenCreate>
