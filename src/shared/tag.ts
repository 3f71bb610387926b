import { z } from 'zod'
import { normalizeColor } from './values'
import { StrictId, StrictTimestamp, tolerantObject } from './common'

export { DEFAULT_TAG_COLOR, normalizeColor } from './values'

/** A request colour: `#RGB` or `#RRGGBB`, any case, normalised to `#RRGGBB` upper case. */
export const TagColor = z
  .string()
  .refine((v) => normalizeColor(v) !== null, 'Colour must be #RGB or #RRGGBB')
  .transform((v) => normalizeColor(v) as string)

export const TagName = z.string().trim().min(1, 'Enter a name').max(64, 'At most 64 characters')

export const TagStrict = z.object({
  id: StrictId,
  name: z.string(),
  color: z.string().regex(/^#[0-9A-F]{6}$/),
  userId: StrictId,
  createdAt: StrictTimestamp,
  updatedAt: StrictTimestamp
})
export type TagStrict = z.infer<typeof TagStrict>

export const Tag = tolerantObject({
  name: z.string(),
  color: z.string(),
  userId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string()
})
export type Tag = z.infer<typeof Tag>

export const TagCreate = z.object({ name: TagName, color: TagColor, userId: StrictId })
export type TagCreate = z.input<typeof TagCreate>
export const TagUpdate = z.object({ name: TagName.optional(), color: TagColor.optional() })
export type TagUpdate = z.input<typeof TagUpdate>
/** A tag as it may be referenced in an agent create request: the object, or (local service) its id. */
export const TagRef = z.union([StrictId, z.looseObject({ id: StrictId })])
