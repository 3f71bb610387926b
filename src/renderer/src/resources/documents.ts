import type { Document, DocumentCreate } from '../../../shared/document'
import { DOCUMENT_TYPES } from '../../../shared/values'
import { useDocumentsStore } from '../stores/documents'
import { namedResource, typedList } from './define'
import type { ResourceDescriptor } from './types'

/** Documents: 10,000-row list with type filter; rows drag onto agents to link them. */
export const documents: ResourceDescriptor<Document, DocumentCreate> = {
  ...namedResource('document'),
  useStore: useDocumentsStore,
  ...typedList<Document>(DOCUMENT_TYPES, 'document', (d) => d.url),
  placeholderCreate: true,
  create: (input) => useDocumentsStore().create(input)
}
