import { z } from 'zod'
import { ToolType, JsonObject } from './common'
import { json, oneOf, owned, resourceSchemas, stamps, text } from './fields'

const tool = resourceSchemas({
  ...owned,
  name: text,
  type: oneOf(ToolType),
  description: text,
  metadata: json,
  ...stamps
})
export const ToolStrict = tool.strict
export type ToolStrict = z.infer<typeof ToolStrict>

/** The tool as a client accepts it. The document's list returns only id, name and type. */
export const Tool = tool.tolerant
export type Tool = z.infer<typeof Tool>

export const ToolName = z.string().trim().min(1, 'Enter a name').max(200, 'At most 200 characters')
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
