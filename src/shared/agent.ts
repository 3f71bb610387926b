import { z } from 'zod'
import { AgentType, Embedded, StrictId, StrictTimestamp, tolerantObject } from './common'
import { Tag, TagRef, TagStrict } from './tag'

export const Llm = z.object({
  provider: z.string().trim().min(1, 'Enter a provider').max(100),
  model: z.string().trim().min(1, 'Enter a model').max(200)
})
export type Llm = z.infer<typeof Llm>

export const AgentStrict = z.object({
  id: StrictId,
  userId: StrictId,
  user: Embedded,
  document: Embedded,
  documentId: z.string().nullable(),
  promptId: z.string().nullable(),
  name: z.string(),
  type: AgentType,
  tags: z.array(TagStrict),
  llm: Llm,
  hasMemory: z.boolean(),
  AgentMemory: z.null(),
  createdAt: StrictTimestamp,
  updatedAt: StrictTimestamp
})
export type AgentStrict = z.infer<typeof AgentStrict>

export const Agent = tolerantObject({
  userId: z.string(),
  user: z.looseObject({}),
  document: z.looseObject({}),
  documentId: z.string().nullable(),
  promptId: z.string().nullable(),
  name: z.string(),
  type: z.string(),
  tags: z.array(Tag.nullable().catch(null)).transform((tags) => tags.filter((t): t is Tag => t !== null)),
  llm: z.looseObject({
    provider: z.string().optional().catch(undefined),
    model: z.string().optional().catch(undefined)
  }),
  hasMemory: z.boolean(),
  AgentMemory: z.unknown(),
  createdAt: z.string(),
  updatedAt: z.string()
})
export type Agent = z.infer<typeof Agent>

export const AgentName = z.string().trim().min(1, 'Enter a name').max(200, 'At most 200 characters')

/** POST /agents. `tags` carries tag objects ({id, name, color}); the local service also accepts ids. */
export const AgentCreate = z.object({
  name: AgentName,
  type: AgentType,
  llm: Llm,
  hasMemory: z.boolean().default(false),
  promptId: StrictId.nullable().optional(),
  documentId: StrictId.nullable().optional(),
  tags: z.array(TagRef).max(100).optional()
})
export type AgentCreate = z.input<typeof AgentCreate>

/** PATCH /agents/{id} (an extra of decisions.md). */
export const AgentUpdate = z.object({
  name: AgentName.optional(),
  type: AgentType.optional(),
  llm: Llm.optional(),
  hasMemory: z.boolean().optional(),
  promptId: StrictId.nullable().optional(),
  documentId: StrictId.nullable().optional(),
  tags: z.array(TagRef).max(100).optional()
})
export type AgentUpdate = z.input<typeof AgentUpdate>
