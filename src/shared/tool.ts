import { z } from 'zod'
import { JsonObject, ToolType } from './common'
import { json, nameText, oneOf, owned, resourceSchemas, stamps, text } from './fields'

/** The tool as a client accepts it. The document's list returns only id, name and type. */
export const { strict: ToolStrict, tolerant: Tool } = resourceSchemas({
  ...owned,
  name: text,
  type: oneOf(ToolType),
  description: text,
  metadata: json,
  ...stamps
})
export type ToolStrict = z.infer<typeof ToolStrict>
export type Tool = z.infer<typeof Tool>

export const ToolName = nameText(200)
const Description = z.string().max(5000, 'At most 5,000 characters')

/** POST /tools (an extra of decisions.md). */
export const ToolCreate = z.object({
  name: ToolName,
  type: ToolType,
  description: Description.optional(),
  metadata: JsonObject.optional()
})
export type ToolCreate = z.input<typeof ToolCreate>

/** PATCH /tools/{id}: configuration goes in `metadata`. */
export const ToolUpdate = z.object({
  name: ToolName.optional(),
  description: Description.optional(),
  type: ToolType.optional(),
  metadata: JsonObject.optional()
})
export type ToolUpdate = z.input<typeof ToolUpdate>
