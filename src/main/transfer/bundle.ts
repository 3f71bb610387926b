/**
 * The export file: a workspace (or some agents with what they use) written as a `TransferFile`,
 * each item by `ref` (its id where it was exported), the agents' references as refs.
 */
import type { Agent } from '../../shared/agent'
import type { ApiToken } from '../../shared/apiToken'
import type { Document } from '../../shared/document'
import type { AgentDocument, AgentTool } from '../../shared/links'
import type { Prompt } from '../../shared/prompt'
import type { Tag } from '../../shared/tag'
import type { Tool } from '../../shared/tool'
import {
  TRANSFER_FORMAT,
  TRANSFER_VERSION,
  type ExportedAgent,
  type ExportedDocument,
  type ExportedPrompt,
  type ExportedTag,
  type ExportedTool,
  type TransferCounts
} from '../../shared/transfer'

/** Everything an export may hold, as main reads it (server or offline cache). */
export interface Workspace {
  agents: Agent[]
  documents: Document[]
  tools: Tool[]
  prompts: Prompt[]
  tags: Tag[]
  agentDocuments: AgentDocument[]
  agentTools: AgentTool[]
  /** Only read when secrets are asked for. */
  apiTokens: ApiToken[]
}

export interface ExportFile {
  format: typeof TRANSFER_FORMAT
  version: number
  exportedAt: string
  source: { profile: string; app: string }
  secrets: boolean
  tags: ExportedTag[]
  prompts: ExportedPrompt[]
  documents: ExportedDocument[]
  tools: ExportedTool[]
  agents: ExportedAgent[]
  apiTokens: { description: string; token: string }[]
}

const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback)
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {}
const objOrNull = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null

/** The ids an agent refers to: its prompt, its document, its tags and its linked documents and tools. */
function agentRefs(a: Agent, ws: Workspace) {
  return {
    promptRef: a.promptId ?? null,
    documentRef: a.documentId ?? null,
    tagRefs: (a.tags ?? []).map((t) => t.id),
    documentRefs: ws.agentDocuments
      .filter((l) => l.agentId === a.id && l.documentId)
      .map((l) => l.documentId as string),
    toolRefs: ws.agentTools.filter((l) => l.agentId === a.id && l.toolId).map((l) => l.toolId as string)
  }
}

/** The file for `ws`, or for the agents `agentIds` with only what they use. */
export function buildExport(
  ws: Workspace,
  opts: { agentIds?: string[] | undefined; includeSecrets: boolean; profile: string; app: string; now?: Date }
): ExportFile {
  const chosen = opts.agentIds ? new Set(opts.agentIds) : null
  const agents = chosen ? ws.agents.filter((a) => chosen.has(a.id)) : ws.agents
  const refs = agents.map((a) => ({ a, ...agentRefs(a, ws) }))
  const used = <T extends { id: string }>(
    items: T[],
    ids: (r: (typeof refs)[number]) => (string | null)[]
  ) => {
    if (!chosen) return items
    const wanted = new Set(refs.flatMap(ids))
    return items.filter((i) => wanted.has(i.id))
  }
  // Tags the agents carry but the tag list lacks (a server without a tag list) come from the agents.
  const tags = new Map<string, Tag>()
  for (const t of [...ws.tags, ...agents.flatMap((a) => a.tags ?? [])]) if (!tags.has(t.id)) tags.set(t.id, t)
  const secrets = opts.includeSecrets
  return {
    format: TRANSFER_FORMAT,
    version: TRANSFER_VERSION,
    exportedAt: (opts.now ?? new Date()).toISOString(),
    source: { profile: opts.profile, app: opts.app },
    secrets,
    tags: used([...tags.values()], (r) => r.tagRefs).map((t) => ({
      ref: t.id,
      name: str(t.name),
      color: str(t.color, '#808080')
    })),
    prompts: used(ws.prompts, (r) => [r.promptRef]).map((p) => ({
      ref: p.id,
      name: str(p.name),
      template: str(p.template),
      input_variables: Array.isArray(p.input_variables) ? p.input_variables : []
    })),
    documents: used(ws.documents, (r) => [r.documentRef, ...r.documentRefs]).map((d) => ({
      ref: d.id,
      name: str(d.name),
      type: str(d.type),
      url: str(d.url),
      from_page: typeof d.from_page === 'number' ? d.from_page : null,
      to_page: typeof d.to_page === 'number' || typeof d.to_page === 'string' ? d.to_page : null,
      metadata: obj(d.metadata),
      splitter: objOrNull(d.splitter),
      ...(secrets ? { authorization: objOrNull(d.authorization) } : {})
    })),
    tools: used(ws.tools, (r) => r.toolRefs).map((t) => ({
      ref: t.id,
      name: str(t.name),
      type: str(t.type),
      description: str(t.description),
      metadata: obj(t.metadata)
    })),
    agents: refs.map(({ a, ...r }) => ({
      ref: a.id,
      name: str(a.name),
      type: str(a.type),
      llm: { provider: str(a.llm?.provider), model: str(a.llm?.model) },
      hasMemory: a.hasMemory === true,
      ...r
    })),
    apiTokens:
      secrets && !chosen
        ? ws.apiTokens.map((t) => ({ description: str(t.description), token: str(t.token) }))
        : []
  }
}

export function countsOf(f: {
  tags: unknown[]
  prompts: unknown[]
  documents: unknown[]
  tools: unknown[]
  agents: unknown[]
  apiTokens: unknown[]
}): TransferCounts {
  return {
    tags: f.tags.length,
    prompts: f.prompts.length,
    documents: f.documents.length,
    tools: f.tools.length,
    agents: f.agents.length,
    apiTokens: f.apiTokens.length
  }
}

/** `agent-desk-<profile>-YYYY-MM-DD.json` */
export function exportFileName(profile: string, now = new Date()): string {
  const slug =
    profile
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'workspace'
  return `agent-desk-${slug}-${now.toISOString().slice(0, 10)}.json`
}
