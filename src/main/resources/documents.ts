/** Documents: endpoints, write operations (create, rename, delete) and IPC handlers. */
import type { z } from 'zod'
import { Document, type DocumentCreate } from '../../shared/document'
import { crud, type Crud, type Endpoints } from '../api/endpoints'
import {
  api,
  cachedName,
  createOp,
  plainDelete,
  q,
  readRoutes,
  updateOp,
  type Lease,
  type Writes
} from './kit'

export type DocumentCreateParsed = z.output<typeof DocumentCreate>

/** Documents are renamed, not edited: their update sends the name only. */
export function documentsEndpoints(e: Endpoints): Crud<Document, DocumentCreateParsed, { name: string }> {
  const plain = crud<typeof Document, DocumentCreateParsed, { name: string }>(e, {
    resource: 'documents',
    schema: Document,
    what: 'document',
    fields: ['name', 'type', 'url', 'from_page', 'to_page', 'metadata'],
    updateFields: ['name']
  })
  const rename = (id: string, patch: { name: string }) =>
    e.write(
      'documents.rename',
      'PATCH',
      `/documents/${e.enc(id)}`,
      { name: patch.name },
      Document,
      'document',
      {
        name: patch.name
      }
    )
  return { ...plain, update: rename }
}

const documents = (s: Lease) => documentsEndpoints(api(s))

export const documentWrites: Writes<'documents.create' | 'documents.rename' | 'documents.delete'> = {
  'documents.create': (b) =>
    createOp('documents', {
      label: () => `Add document ${q(b.name)}`,
      known: () => ({ ...b }),
      call: (s) => documents(s).create(b),
      find: (s) => documents(s).list()
    }),
  'documents.rename': ({ id, patch }) =>
    updateOp('documents', id, {
      label: (s) => {
        const old = cachedName(s, 'documents', id)
        return old === patch.name
          ? `Rename document ${q(old)}`
          : `Rename document ${q(old)} to ${q(patch.name)}`
      },
      known: () => ({ name: patch.name }),
      call: (s) => documents(s).update(id, patch),
      current: (s) => documents(s).get(id)
    }),
  'documents.delete': plainDelete('documents', 'document', (s, id) => documents(s).delete(id))
}

export const documentReads = readRoutes('documents', documents)
