import { defineStore } from 'pinia'
import { computed } from 'vue'
import type { Document, DocumentCreate, DocumentUpdate } from '../../../shared/document'
import type { AgentDocument } from '../../../shared/links'
import type { Read, Write } from '../../../shared/ipc'
import { useResourceList } from '../composables/useResourceList'

/** One agent that links a document, as the detail pane shows it. */
export interface DocumentLink {
  linkId: string
  agentId: string
  agentName: string
}

function desk() {
  return window.agentDesk
}

function nameOf(o: unknown): string | undefined {
  if (o && typeof o === 'object' && 'name' in o && typeof o.name === 'string') return o.name
  return undefined
}

/**
 * Documents, fed only through `window.agentDesk.documents`. The list is cache-first; writes are
 * applied optimistically and rolled back when the server refuses them (the error is re-thrown so
 * the view can show it on the form).
 */
export const useDocumentsStore = defineStore('documents', () => {
  const list = useResourceList<Document>({
    resource: 'documents',
    list: (input) => desk().documents.list(input)
  })

  const byId = computed(() => {
    const m = new Map<string, Document>()
    for (const d of list.items.value) m.set(d.id, d)
    return m
  })

  function find(id: string): Document | undefined {
    return byId.value.get(id)
  }

  /** Loads once; later calls are no-ops unless `force`. */
  async function ensureLoaded(force = false): Promise<void> {
    if (force || (!list.loaded.value && !list.loading.value)) await list.load()
  }

  async function get(id: string, cacheOnly = false): Promise<Read<Document>> {
    const r = await desk().documents.get({ id, cacheOnly })
    if (r.data && r.data.id) list.upsert({ ...find(id), ...r.data })
    return r
  }

  async function create(input: DocumentCreate): Promise<Write<Document>> {
    const r = await desk().documents.create(input)
    if (r.data && r.data.id) list.upsert(r.data)
    return r
  }

  async function rename(id: string, patch: DocumentUpdate): Promise<Write<Document>> {
    const before = find(id)
    if (before) list.upsert({ ...before, name: patch.name.trim() })
    try {
      const r = await desk().documents.rename({ id, patch })
      if (r.data && r.data.id) list.upsert({ ...before, ...r.data })
      return r
    } catch (e) {
      if (before) list.upsert(before)
      throw e
    }
  }

  async function remove(id: string): Promise<Write<null>> {
    const before = find(id)
    const index = list.items.value.findIndex((d) => d.id === id)
    list.remove(id)
    try {
      return await desk().documents.delete({ id })
    } catch (e) {
      if (before) {
        const next = list.items.value.slice()
        next.splice(Math.max(0, Math.min(index, next.length)), 0, before)
        list.items.value = next
      }
      throw e
    }
  }

  /** Which agents link the document (needs `agentDocuments.list`; agent names from the agent cache). */
  async function linksOf(documentId: string): Promise<DocumentLink[]> {
    const r = await desk().agentDocuments.list({})
    const links = (r.data as AgentDocument[]).filter((l) => l.documentId === documentId)
    let names = new Map<string, string>()
    try {
      const agents = await desk().agents.list({ cacheOnly: true })
      names = new Map(agents.data.map((a) => [a.id, nameOf(a) ?? a.id]))
    } catch {
      /* names are a nicety; ids stand in */
    }
    return links.map((l) => {
      const agentId = l.agentId ?? ''
      return { linkId: l.id, agentId, agentName: nameOf(l.agent) ?? names.get(agentId) ?? agentId }
    })
  }

  return {
    items: list.items,
    loading: list.loading,
    error: list.error,
    offline: list.offline,
    syncedAt: list.syncedAt,
    catalogue: list.catalogue,
    loaded: list.loaded,
    load: list.load,
    upsert: list.upsert,
    ensureLoaded,
    find,
    get,
    create,
    rename,
    remove,
    delete: remove,
    linksOf
  }
})
