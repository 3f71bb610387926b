import { z } from 'zod'
import { Embedded, JsonObject, StrictId, StrictTimestamp, ToolType, tolerantObject } from './common'

export const ToolStrict = z.object({
  id: StrictId,
  userId: StrictId,
  user: Embedded,
  name: z.string(),
  type: ToolType,
  description: z.string(),
  metadata: JsonObject,
  createdAt: StrictTimestamp,
  updatedAt: StrictTimestamp
})
export type ToolStrict = z.infer<typeof ToolStrict>

/** The tool as a client accepts it. The document's list returns only id, name and type. */
export const Tool = tolerantObject({
  userId: z.string(),
  user: z.looseObject({}),
  name: z.string(),
  type: z.string(),
  description: z.string(),
  metadata: JsonObject,
  createdAt: z.string(),
  updatedAt: z.string()
})
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
