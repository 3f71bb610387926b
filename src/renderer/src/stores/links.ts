import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { AgentDocument, AgentTool } from '../../../shared/links'
import type { AppErrorData } from '../../../shared/errors'
import type { Read, Write } from '../../../shared/ipc'
import { desk } from '../desk'
import { toAppError } from '../composables/useErrors'
import { i18n } from '../i18n'
import { onSessionReset } from '../composables/sessionBus'
import { oneAtATime, type OneAtATime } from '../composables/oneAtATime'

export type LinkKind = 'document' | 'tool'

/** One agent→document or agent→tool link as the agent detail shows it. */
export interface LinkItem {
  /** Stable key for lists (link id, or agent:target when the server gave none). */
  key: string
  /** The link's id; null while pending or when the server gave none (agent-tool links may lack one). */
  id: string | null
  kind: LinkKind
  agentId: string
  targetId: string
  /** Embedded name from the server, when it sent one. */
  name: string | null
  /** Shown at once, not yet confirmed by the server. */
  pending: boolean
  /** Confirmed into the outbox: will be sent when the server is back. */
  queued: boolean
  createdAt: string | null
}

/** What the agent's link sections ask of the page: link a target, unlink a link. */
export type LinkEvents = {
  link: [kind: LinkKind, target: { id: string; name: string }]
  unlink: [item: LinkItem]
}

export interface AgentLinks {
  documents: LinkItem[]
  tools: LinkItem[]
  loading: boolean
  loaded: boolean
  /** True when the server cannot list links: the lists hold links made/seen on this computer. */
  localOnly: { document: boolean; tool: boolean }
  error: AppErrorData | null
}

function nameOf(o: unknown): string | null {
  if (o && typeof o === 'object' && 'name' in o && typeof o.name === 'string') return o.name
  return null
}

export function fromAgentDocument(l: AgentDocument, queued = false): LinkItem {
  return {
    key: `d:${l.id}`,
    id: l.id,
    kind: 'document',
    agentId: l.agentId ?? '',
    targetId: l.documentId ?? '',
    name: nameOf(l.document),
    pending: false,
    queued,
    createdAt: l.createdAt ?? null
  }
}

export function fromAgentTool(l: AgentTool, queued = false): LinkItem {
  const agentId = l.agentId ?? ''
  const toolId = l.toolId ?? ''
  return {
    key: l.id ? `t:${l.id}` : `t:${agentId}:${toolId}`,
    id: l.id ?? null,
    kind: 'tool',
    agentId,
    targetId: toolId,
    name: nameOf(l.tool),
    pending: false,
    queued,
    createdAt: l.createdAt ?? null
  }
}

const empty = (): AgentLinks => ({
  documents: [],
  tools: [],
  loading: false,
  loaded: false,
  localOnly: { document: false, tool: false },
  error: null
})

/**
 * Links between agents and documents/tools, per agent. Linking is optimistic: the link appears at
 * once (pending) and is confirmed by `agentDocuments.create` / `agentTools.create`. Where the server
 * cannot list links, the links made in this session (and the cache's) are shown.
 */
export const useLinksStore = defineStore('links', () => {
  const byAgent = ref<Record<string, AgentLinks>>({})
  /** Links made in this renderer session, kept for servers that cannot list links. */
  const madeHere = new Map<string, LinkItem>()
  let subscribed = false

  // An agent's links are read one read at a time (oneAtATime): a burst of link changes reads
  // each agent's links twice, and an older answer never lands after a newer one.
  const reads = new Map<string, OneAtATime>()
  /** Counts session resets: an answer asked before one is dropped (another user's links). */
  let resets = 0

  onSessionReset(() => {
    resets++
    byAgent.value = {}
    madeHere.clear()
    for (const r of reads.values()) r.reset()
    reads.clear()
  })

  function entry(agentId: string): AgentLinks {
    let e = byAgent.value[agentId]
    if (!e) {
      byAgent.value[agentId] = empty()
      e = byAgent.value[agentId] as AgentLinks
    }
    return e
  }

  function of(agentId: string): AgentLinks {
    return byAgent.value[agentId] ?? empty()
  }

  function subscribe(): void {
    if (subscribed) return
    subscribed = true
    desk().on('data.changed', (p) => {
      if (p?.resource === 'agentDocuments' || p?.resource === 'agentTools') {
        for (const id of Object.keys(byAgent.value)) void load(id)
      }
    })
  }

  function localLinks(agentId: string, kind: LinkKind): LinkItem[] {
    return [...madeHere.values()].filter((l) => l.agentId === agentId && l.kind === kind)
  }

  /** Keeps optimistic (pending) items the server does not know yet. */
  function merge(server: LinkItem[], current: LinkItem[]): LinkItem[] {
    const ids = new Set(server.map((l) => l.targetId))
    return [...server, ...current.filter((l) => l.pending && !ids.has(l.targetId))]
  }

  /**
   * Puts one kind's list answer into an agent's entry; where the server cannot list that kind, the
   * links known here. Returns the failure to show, if any.
   */
  function settle<L extends { agentId?: string | null | undefined }>(
    agentId: string,
    cur: AgentLinks,
    kind: LinkKind,
    res: PromiseSettledResult<Read<L[]>>,
    toItem: (l: L) => LinkItem
  ): AppErrorData | null {
    const field = kind === 'document' ? 'documents' : 'tools'
    if (res.status === 'fulfilled') {
      const list = (res.value.data ?? []).filter((l) => !l.agentId || l.agentId === agentId)
      cur[field] = merge(list.map(toItem), cur[field])
      cur.localOnly[kind] = !!res.value.catalogue
      return null
    }
    const err = toAppError(res.reason)
    cur.localOnly[kind] = err.kind === 'not_offered'
    cur[field] = merge(localLinks(agentId, kind), cur[field])
    return err.kind === 'not_offered' ? null : err
  }

  function load(agentId: string): Promise<void> {
    let r = reads.get(agentId)
    if (!r) reads.set(agentId, (r = oneAtATime(() => read(agentId))))
    return r.run()
  }

  async function read(agentId: string): Promise<void> {
    subscribe()
    const e = entry(agentId)
    e.loading = true
    e.error = null
    const api = desk()
    const asked = resets
    const [docs, tools] = await Promise.allSettled([
      api.agentDocuments.list({ agentId }),
      api.agentTools.list({ agentId })
    ])
    if (asked !== resets) return
    const cur = entry(agentId)
    const docsError = settle(agentId, cur, 'document', docs, (l) => fromAgentDocument(l))
    const toolsError = settle(agentId, cur, 'tool', tools, (l) =>
      fromAgentTool({ ...l, agentId: l.agentId ?? agentId })
    )
    if (docsError) cur.error = docsError
    else if (toolsError && !cur.error) cur.error = toolsError
    cur.loading = false
    cur.loaded = true
  }

  function isLinked(agentId: string, kind: LinkKind, targetId: string): boolean {
    const e = byAgent.value[agentId]
    if (!e) return false
    return (kind === 'document' ? e.documents : e.tools).some((l) => l.targetId === targetId)
  }

  /**
   * Links a document or tool to an agent: appears at once, then confirmed. Throws (after removing
   * the pending item) when the server refuses; throws a `conflict` when it is already linked.
   */
  async function link(
    agentId: string,
    kind: LinkKind,
    target: { id: string; name?: string | null }
  ): Promise<Write<AgentDocument> | Write<AgentTool>> {
    subscribe()
    if (isLinked(agentId, kind, target.id)) {
      const err: AppErrorData = {
        kind: 'conflict',
        message: `“${target.name ?? target.id}” is already linked to this agent`
      }
      throw Object.assign(new Error(err.message), err)
    }
    const e = entry(agentId)
    const pendingKey = `pending:${kind}:${agentId}:${target.id}`
    const pending: LinkItem = {
      key: pendingKey,
      id: null,
      kind,
      agentId,
      targetId: target.id,
      name: target.name ?? null,
      pending: true,
      queued: false,
      createdAt: new Date().toISOString()
    }
    const listKey = kind === 'document' ? 'documents' : 'tools'
    e[listKey] = [...e[listKey], pending]
    try {
      let result: Write<AgentDocument> | Write<AgentTool>
      let item: LinkItem
      if (kind === 'document') {
        const r = await desk().agentDocuments.create({ agentId, documentId: target.id })
        result = r
        item = fromAgentDocument(
          { ...r.data, agentId: r.data.agentId ?? agentId, documentId: r.data.documentId ?? target.id },
          r.status === 'queued'
        )
      } else {
        const r = await desk().agentTools.create({ agentId, toolId: target.id })
        result = r
        item = fromAgentTool(
          { ...r.data, agentId: r.data?.agentId ?? agentId, toolId: r.data?.toolId ?? target.id },
          r.status === 'queued'
        )
      }
      if (!item.name) item.name = target.name ?? null
      madeHere.set(item.key, item)
      const cur = entry(agentId)
      cur[listKey] = cur[listKey].map((l) => (l.key === pendingKey ? item : l))
      return result
    } catch (err) {
      const cur = entry(agentId)
      cur[listKey] = cur[listKey].filter((l) => l.key !== pendingKey)
      throw err
    }
  }

  /** Removes a link (optimistic; restored when the server refuses). Needs the link's id. */
  async function unlink(item: LinkItem): Promise<Write<null>> {
    if (!item.id) {
      const err: AppErrorData = {
        kind: 'not_offered',
        message: i18n.global.t('links.noLinkId')
      }
      throw Object.assign(new Error(err.message), err)
    }
    const e = entry(item.agentId)
    const listKey = item.kind === 'document' ? 'documents' : 'tools'
    const before = e[listKey]
    e[listKey] = before.filter((l) => l.key !== item.key)
    try {
      const r =
        item.kind === 'document'
          ? await desk().agentDocuments.delete({ id: item.id })
          : await desk().agentTools.delete({ id: item.id })
      madeHere.delete(item.key)
      return r
    } catch (err) {
      entry(item.agentId)[listKey] = before
      throw err
    }
  }

  return { byAgent, of, load, link, unlink, isLinked }
})
