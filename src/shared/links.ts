import { z } from 'zod'
import { StrictId } from './common'
import { embedded, field, ref, resourceSchemas, stamp } from './fields'

/** The owner id is in the strict link only (the tolerant one has never required it). */
const linkOwner = { userId: field(StrictId, null), user: embedded }

type LinkFields<O extends string> = typeof linkOwner & { agent: typeof embedded; agentId: typeof ref } & {
  [K in O]: typeof embedded
} & { [K in `${O}Id`]: typeof ref } & { createdAt: typeof stamp }

/** The fields of a link from an agent to `other` (e.g. 'document': `document`, `documentId`). */
function agentLink<O extends string>(other: O): LinkFields<O> {
  const idKey = `${other}Id`
  return {
    ...linkOwner,
    agent: embedded,
    agentId: ref,
    [other]: embedded,
    [idKey]: ref,
    createdAt: stamp
  } as LinkFields<O>
}

const agentDocument = resourceSchemas(agentLink('document'))
export const AgentDocumentStrict = agentDocument.strict
export type AgentDocumentStrict = z.infer<typeof AgentDocumentStrict>

export const AgentDocument = agentDocument.tolerant
export type AgentDocument = z.infer<typeof AgentDocument>

export const AgentToolStrict = resourceSchemas(agentLink('tool')).strict
export type AgentToolStrict = z.infer<typeof AgentToolStrict>

/** The document's agent-tool link has no id; the client accepts that and keys it by agentId+toolId. */
export const AgentTool = z.looseObject({
  id: z
    .union([z.string(), z.number()])
    .transform((v) => String(v))
    .optional()
    .catch(undefined),
  user: z.looseObject({}).optional().catch(undefined),
  agent: z.looseObject({}).optional().catch(undefined),
  agentId: z.string().optional().catch(undefined),
  tool: z.looseObject({}).optional().catch(undefined),
  toolId: z.string().optional().catch(undefined),
  createdAt: z.string().optional().catch(undefined)
})
export type AgentTool = z.infer<typeof AgentTool>

export const AgentDocumentCreate = z.object({ agentId: StrictId, documentId: StrictId })
export type AgentDocumentCreate = z.infer<typeof AgentDocumentCreate>
export const AgentToolCreate = z.object({ agentId: StrictId, toolId: StrictId })
export type AgentToolCreate = z.infer<typeof AgentToolCreate>
