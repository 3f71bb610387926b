import type { Document, DocumentCreate } from '../../../shared/document'
import { DOCUMENT_TYPES } from '../../../shared/values'
import { useDocumentsStore } from '../stores/documents'
import type { ResourceDescriptor } from './types'

/** Documents: 10,000-row list with type filter; rows drag onto agents to link them. */
export const documents: ResourceDescriptor<Document, DocumentCreate> = {
  title: 'Documents',
  path: '/documents',
  noun: 'document',
  plural: 'documents',
  testid: 'document',
  useStore: useDocumentsStore,
  query: {
    name: (d) => d.name ?? '',
    type: (d) => d.type,
    date: (d) => d.createdAt,
    types: DOCUMENT_TYPES
  },
  typeFilter: true,
  row: {
    title: (d) => d.name || '(unnamed)',
    badge: (d) => d.type ?? '?',
    hover: (d) => d.url,
    drag: 'document'
  },
  emptyText: (filtered) => (filtered ? 'No documents match the filter' : 'No documents yet — create one'),
  newLabel: 'New document',
  createTitle: 'New document',
  notFound: 'Document not found',
  hint: 'Select a document, or create one',
  placeholderCreate: true,
  create: (input) => useDocumentsStore().create(input),
  createLabel: (input) => `Create document “${input.name}”`,
  draftKey: 'document-create',
  // Forms and detail panes (and zod with them) load when first shown, not with the list.
  detailProp: 'document'
}
