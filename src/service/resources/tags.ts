/** Tags: table, row mapping, routes; a tag is created only for the signed-in user. */
import { TagCreate, TagUpdate, type TagStrict } from '../../shared'
import type { Db } from '../db'
import type { LongReads } from '../reads'
import { forbidden } from '../http'
import { ownedCrud, type RouteTable } from '../routes'
import { createTableSql, ownedTable, str, timeFields } from '../sql'
import type { Row, TableDef } from '../sql'

const TAGS: TableDef = { table: 'tags', columns: { name: 'TEXT NOT NULL', color: 'TEXT NOT NULL' } }
export const migrations = { 1: createTableSql(TAGS) }

type TagInput = Pick<TagStrict, 'name' | 'color'>

function mapTag(r: Row): TagStrict {
  return {
    id: str(r.id),
    name: str(r.name),
    color: str(r.color),
    userId: str(r.user_id),
    ...timeFields(r)
  }
}

export type TagStorage = ReturnType<typeof tagsStorage>

export function tagsStorage(db: Db, reads: LongReads | null = null) {
  return ownedTable<TagStrict, TagInput>(db, TAGS, { encode: (t) => t, decode: mapTag }, reads)
}

export function tagRoutes(tags: TagStorage): RouteTable {
  return ownedCrud({
    path: '/tags',
    what: 'Tag',
    table: tags,
    create: {
      schema: TagCreate,
      input(b, ctx) {
        if (b.userId !== ctx.user.id) throw forbidden('Tags can only be created for the signed-in user')
        return { name: b.name, color: b.color }
      }
    },
    update: { schema: TagUpdate }
  })
}
