/**
 * Carrying out an import plan on a server (the signed-in profile's, or another profile's for a
 * copy): tags, prompts, documents, tools, agents with their references remapped to the new ids,
 * then the links. It stops at the first failed request and says what was created, which `undo`
 * removes again (newest first; reused tags are left alone).
 */
import { AppError } from '../../shared/errors'
import type { AgentCreate } from '../../shared/agent'
import type { TransferEntry, TransferKind, UndoResult } from '../../shared/transfer'
import type { ApiClient } from '../api/client'
import type { Plan } from './plan'

export interface Created {
  kind: Exclude<TransferKind, 'apiToken'>
  id: string | null
  name: string
}

export interface Applied {
  entries: TransferEntry[]
  created: Created[]
  failure: { message: string } | null
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e))

export async function applyPlan(
  plan: Plan,
  client: ApiClient,
  userId: () => Promise<string>
): Promise<Applied> {
  const entries: TransferEntry[] = []
  const created: Created[] = []
  const ids = new Map<string, string>() // `${kind}:${ref}` → id on the target
  const tagObjects = new Map<string, { id: string; name: string; color: string }>()
  let current = ''
  const made = (kind: Created['kind'], id: string | null, name: string, reason?: string) => {
    created.push({ kind, id, name })
    entries.push({ kind, name, action: 'create', ...(id ? { id } : {}), ...(reason ? { reason } : {}) })
  }
  try {
    for (const s of plan.steps) {
      current = `${s.kind} “${s.name}”`
      const b = s.body
      if (s.kind === 'tag') {
        if (s.reuse) {
          ids.set(`tag:${s.ref}`, s.reuse.id)
          tagObjects.set(s.ref, s.reuse)
          entries.push({ kind: 'tag', name: s.name, action: 'reuse', id: s.reuse.id })
          continue
        }
        const t = await client.tags.create({
          name: String(b.name),
          color: String(b.color),
          userId: await userId()
        })
        tagObjects.set(s.ref, { id: t.id, name: t.name ?? String(b.name), color: t.color ?? String(b.color) })
        ids.set(`tag:${s.ref}`, t.id)
        made('tag', t.id, s.name)
        continue
      }
      const item =
        s.kind === 'prompt'
          ? await client.prompts.create(b as Parameters<ApiClient['prompts']['create']>[0])
          : s.kind === 'document'
            ? await client.documents.create(b as Parameters<ApiClient['documents']['create']>[0])
            : await client.tools.create(b as Parameters<ApiClient['tools']['create']>[0])
      ids.set(`${s.kind}:${s.ref}`, item.id)
      made(s.kind, item.id, s.name)
    }
    const agentIds = new Map<string, string>()
    for (const a of plan.agents) {
      current = `agent “${a.name}”`
      const { promptRef, documentRef, tagRefs, documentRefs: _d, toolRefs: _t, ...fields } = a.body
      const body: AgentCreate = {
        ...fields,
        promptId: promptRef ? (ids.get(`prompt:${promptRef}`) ?? null) : null,
        documentId: documentRef ? (ids.get(`document:${documentRef}`) ?? null) : null,
        tags: tagRefs.flatMap((r) => {
          const t = tagObjects.get(r)
          return t ? [t] : []
        })
      }
      const agent = await client.agents.create(body as Parameters<ApiClient['agents']['create']>[0])
      agentIds.set(a.ref, agent.id)
      made('agent', agent.id, a.name, a.notes.length ? a.notes.join('; ') : undefined)
    }
    for (const a of plan.agents) {
      const agentId = agentIds.get(a.ref) as string
      for (const l of a.links) {
        current = `link ${l.name}`
        if (l.kind === 'agentDocument') {
          const documentId = ids.get(`document:${l.ref}`) as string
          const link = await client.agentDocuments.create({ agentId, documentId })
          made('agentDocument', link.id, l.name)
        } else {
          const toolId = ids.get(`tool:${l.ref}`) as string
          const link = await client.agentTools.create({ agentId, toolId })
          made('agentTool', link.id ?? null, l.name)
        }
      }
    }
  } catch (e) {
    return {
      entries: [...entries, ...plan.refused],
      created,
      failure: {
        message: `Stopped at ${current}: ${message(e)}. What was created before is listed; Undo removes it.`
      }
    }
  }
  return { entries: [...entries, ...plan.refused], created, failure: null }
}

/** Deletes what `applyPlan` created, newest first; an item already gone counts as removed. */
export async function undoCreated(client: ApiClient, created: Created[]): Promise<UndoResult> {
  let removed = 0
  const failed: UndoResult['failed'] = []
  for (const c of [...created].reverse()) {
    if (!c.id) {
      failed.push({
        kind: c.kind,
        name: c.name,
        reason: 'The server gave this link no id, so it cannot be removed'
      })
      continue
    }
    try {
      const api = {
        tag: client.tags,
        prompt: client.prompts,
        document: client.documents,
        tool: client.tools,
        agent: client.agents,
        agentDocument: client.agentDocuments,
        agentTool: client.agentTools
      }[c.kind]
      await api.delete(c.id)
      removed++
    } catch (e) {
      if (AppError.is(e) && e.kind === 'not_found') removed++
      else failed.push({ kind: c.kind, name: c.name, reason: message(e) })
    }
  }
  return { removed, failed }
}
