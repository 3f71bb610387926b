/** Tools: table, row mapping, routes (configuration in `metadata`). */
import { ToolCreate, ToolUpdate, type ToolStrict, type UserStrict } from '../../shared'
import type { Db } from '../db'
import type { LongReads } from '../reads'
import { ownedCrud, type RouteTable } from '../routes'
import { createTableSql, jsonObj, ownedTable, namedTypedFields, str, timeFields } from '../sql'
import type { OwnedTable, Row, TableDef } from '../sql'

const TOOLS: TableDef = {
  table: 'tools',
  columns: {
    name: 'TEXT NOT NULL',
    type: 'TEXT NOT NULL',
    description: 'TEXT NOT NULL',
    metadata: 'TEXT NOT NULL'
  }
}
export const migrations = { 1: createTableSql(TOOLS) }

type ToolInput = Pick<ToolStrict, 'name' | 'type' | 'description' | 'metadata'>

export type ToolStorage = OwnedTable<ToolStrict, ToolInput>

export const toolsStorage = (db: Db, reads: LongReads | null = null): ToolStorage =>
  ownedTable(
    db,
    TOOLS,
    {
      encode: (t) => ({ ...t, metadata: JSON.stringify(t.metadata) }),
      decode: mapTool
    },
    reads
  )

function mapTool(r: Row, user: UserStrict): ToolStrict {
  return {
    ...namedTypedFields<ToolStrict['type']>(r, user),
    description: str(r.description),
    metadata: jsonObj(r.metadata),
    ...timeFields(r)
  }
}

export function toolRoutes(tools: ToolStorage): RouteTable {
  return ownedCrud({
    path: '/tools',
    what: 'Tool',
    table: tools,
    create: {
      schema: ToolCreate,
      input: (b) => ({ ...b, description: b.description ?? '', metadata: b.metadata ?? {} })
    },
    update: { schema: ToolUpdate }
  })
}
