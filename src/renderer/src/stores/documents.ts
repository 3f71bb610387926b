import { defineStore } from 'pinia'
import type { Document, DocumentCreate, DocumentUpdate } from '../../../shared/document'
import type { AgentDocument } from '../../../shared/links'
import type { Read, Write } from '../../../shared/ipc'
import { desk } from '../desk'
import { useResourceStore } from '../composables/useResourceStore'

/** One agent that links a document, as the detail pane shows it. */
export interface DocumentLink {
  linkId: string
  agentId: string
  agentName: string
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
  const s = useResourceStore<Document>({
    resource: 'documents',
    list: (input) => desk().documents.list(input)
  })

  const get = (id: string, cacheOnly = false): Promise<Read<Document>> =>
    s.fetched(() => desk().documents.get({ id, cacheOnly }))
  const create = (input: DocumentCreate): Promise<Write<Document>> =>
    s.created(() => desk().documents.create(input))
  const rename = (id: string, patch: DocumentUpdate): Promise<Write<Document>> =>
    s.patched(
      id,
      (before) => ({ ...before, name: patch.name.trim() }),
      () => desk().documents.rename({ id, patch })
    )
  const remove = (id: string): Promise<Write<null>> => s.removed(id, () => desk().documents.delete({ id }))

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

  return { ...s.state, get, create, rename, remove, delete: remove, linksOf }
})
