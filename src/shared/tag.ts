import { z } from 'zod'
import { canonicalColor, normalizeColor } from './values'
import { StrictId } from './common'
import { field, nameText, ref, resourceSchemas, stamps, text } from './fields'

export { canonicalColor, DEFAULT_TAG_COLOR, normalizeColor } from './values'

/** A request colour: `#RGB` or `#RRGGBB`, any case, normalised to `#RRGGBB` upper case. */
export const TagColor = z
  .string()
  .refine((v) => normalizeColor(v) !== null, 'Colour must be #RGB or #RRGGBB')
  .transform((v) => normalizeColor(v) as string)

export const TagName = nameText(64)
/** A colour as the service stores it (`#RRGGBB`, upper case): canonicalColor gives it back unchanged. */
const CANONICAL = /^#[0-9A-F]{6}$/

export const { strict: TagStrict, tolerant: Tag } = resourceSchemas({
  name: text,
  color: field(
    z.string().regex(CANONICAL),
    z.string().transform(canonicalColor),
    (v) => typeof v === 'string' && (CANONICAL.test(v) || canonicalColor(v) === v)
  ),
  userId: ref,
  ...stamps
})
export type TagStrict = z.infer<typeof TagStrict>
export type Tag = z.infer<typeof Tag>

export const TagCreate = z.object({ name: TagName, color: TagColor, userId: StrictId })
export type TagCreate = z.input<typeof TagCreate>
export const TagUpdate = z.object({ name: TagName.optional(), color: TagColor.optional() })
export type TagUpdate = z.input<typeof TagUpdate>
/**
 * A tag as it may be referenced in an agent create request: its id (local service), or the tag
 * object with only a tag's own keys (unknown keys are refused), each bounded.
 */
export const TagRef = z.union([
  StrictId,
  z.strictObject({
    id: StrictId,
    name: z.string().max(1024).optional(),
    color: z.string().max(64).optional(),
    userId: StrictId.optional(),
    createdAt: z.string().max(64).optional(),
    updatedAt: z.string().max(64).optional()
  })
])
