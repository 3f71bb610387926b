import { z } from 'zod'
import { AgentType, StrictId } from './common'
import {
  asIsCheck,
  embedded,
  field,
  isBoolean,
  isString,
  listOf,
  looseWith,
  nameText,
  oneOf,
  orNull,
  owned,
  reserved,
  resourceSchemas,
  stamps,
  text
} from './fields'
import { Tag, TagRef, TagStrict } from './tag'

export const Llm = z.object({
  provider: z.string().trim().min(1, 'Enter a provider').max(100),
  model: z.string().trim().min(1, 'Enter a model').max(200)
})
export type Llm = z.infer<typeof Llm>

const optionalId = field(z.string().nullable(), z.string().nullable(), orNull(isString))
const tagAsIs = asIsCheck(Tag)
export const { strict: AgentStrict, tolerant: Agent } = resourceSchemas({
  ...owned,
  document: embedded,
  documentId: optionalId,
  promptId: optionalId,
  name: text,
  type: oneOf(AgentType),
  tags: field(
    z.array(TagStrict),
    z.array(Tag.nullable().catch(null)).transform((tags) => tags.filter((t): t is Tag => t !== null)),
    tagAsIs && listOf(tagAsIs)
  ),
  llm: field(
    Llm,
    z.looseObject({
      provider: z.string().optional().catch(undefined),
      model: z.string().optional().catch(undefined)
    }),
    looseWith({ provider: isString, model: isString })
  ),
  hasMemory: field(z.boolean(), z.boolean(), isBoolean),
  AgentMemory: reserved,
  ...stamps
})
export type AgentStrict = z.infer<typeof AgentStrict>
export type Agent = z.infer<typeof Agent>

export const AgentName = nameText(200)

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
