/** Documents: table, row mapping, routes (create, list, get, rename, delete). */
import { DocumentCreate, DocumentUpdate, type DocumentStrict, type UserStrict } from '../../shared'
import type { Db } from '../db'
import type { LongReads } from '../reads'
import { ownedCrud, type RouteTable } from '../routes'
import {
  createTableSql,
  intOrNull,
  jsonObj,
  jsonObjOrNull,
  jsonText,
  ownedTable,
  namedTypedFields,
  str,
  timeFields
} from '../sql'
import type { Row, TableDef } from '../sql'

const DOCUMENTS: TableDef = {
  table: 'documents',
  columns: {
    name: 'TEXT NOT NULL',
    type: 'TEXT NOT NULL',
    url: 'TEXT NOT NULL',
    from_page: 'INTEGER',
    to_page: 'INTEGER',
    metadata: 'TEXT NOT NULL',
    authorization: 'TEXT',
    splitter: 'TEXT'
  }
}
export const migrations = { 1: createTableSql(DOCUMENTS) }

export interface DocumentInput {
  name: string
  type: string
  url: string
  from_page: number | null
  to_page: number | null
  metadata: Record<string, unknown>
  authorization: Record<string, unknown> | null
  splitter: Record<string, unknown> | null
}

export function mapDocument(r: Row, user: UserStrict): DocumentStrict {
  return {
    ...namedTypedFields<DocumentStrict['type']>(r, user),
    url: str(r.url),
    from_page: intOrNull(r.from_page),
    to_page: intOrNull(r.to_page),
    metadata: jsonObj(r.metadata),
    authorization: jsonObjOrNull(r.authorization),
    splitter: jsonObjOrNull(r.splitter),
    ...timeFields(r),
    index: null,
    Agent: null
  }
}

export type DocumentStorage = ReturnType<typeof documentsStorage>

export function documentsStorage(db: Db, reads: LongReads | null = null) {
  return ownedTable<DocumentStrict, DocumentInput>(
    db,
    DOCUMENTS,
    {
      encode: (d) => ({
        ...d,
        metadata: JSON.stringify(d.metadata),
        authorization: jsonText(d.authorization),
        splitter: jsonText(d.splitter)
      }),
      decode: mapDocument,
      updatable: ['name']
    },
    reads
  )
}

export function documentRoutes(documents: DocumentStorage): RouteTable {
  return ownedCrud({
    path: '/documents',
    what: 'Document',
    table: documents,
    create: {
      schema: DocumentCreate,
      input: (b) => ({
        ...b,
        from_page: b.from_page ?? null,
        to_page: b.to_page ?? null,
        metadata: b.metadata ?? {},
        authorization: b.authorization ?? null,
        splitter: b.splitter ?? null
      })
    },
    update: { schema: DocumentUpdate }
  })
}
