import { z } from 'zod'
import { Embedded, StrictId, StrictTimestamp, tolerantObject } from './common'

export const AgentDocumentStrict = z.object({
  id: StrictId,
  userId: StrictId,
  user: Embedded,
  agent: Embedded,
  agentId: StrictId,
  document: Embedded,
  documentId: StrictId,
  createdAt: StrictTimestamp
})
export type AgentDocumentStrict = z.infer<typeof AgentDocumentStrict>

export const AgentDocument = tolerantObject({
  user: z.looseObject({}),
  agent: z.looseObject({}),
  agentId: z.string(),
  document: z.looseObject({}),
  documentId: z.string(),
  createdAt: z.string()
})
export type AgentDocument = z.infer<typeof AgentDocument>

export const AgentToolStrict = z.object({
  id: StrictId,
  userId: StrictId,
  user: Embedded,
  agent: Embedded,
  agentId: StrictId,
  tool: Embedded,
  toolId: StrictId,
  createdAt: StrictTimestamp
})
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
