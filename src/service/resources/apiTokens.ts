/** API tokens: table, row mapping, routes (create, list, get, delete), and the user a token value names. */
import { ApiTokenCreate, type ApiTokenStrict, type UserStrict } from '../../shared'
import { newApiTokenValue } from '../auth'
import type { Db } from '../db'
import type { LongReads } from '../reads'
import { ownedCrud, type RouteTable } from '../routes'
import { createTableSql, ownedTable, ownerFields, str } from '../sql'
import type { Row, TableDef } from '../sql'
import { mapUser, type UserRow } from './users'

const API_TOKENS: TableDef = {
  table: 'api_tokens',
  columns: { description: 'TEXT NOT NULL', token: 'TEXT NOT NULL UNIQUE' },
  updatedAt: false
}
export const migrations = { 1: createTableSql(API_TOKENS) }

type ApiTokenInput = Pick<ApiTokenStrict, 'description' | 'token'>

function mapToken(r: Row, user: UserStrict): ApiTokenStrict {
  return {
    ...ownerFields(r, user),
    description: str(r.description),
    token: str(r.token),
    createdAt: str(r.created_at)
  }
}

export type ApiTokenStorage = ReturnType<typeof apiTokensStorage>

export function apiTokensStorage(db: Db, reads: LongReads | null = null) {
  const table = ownedTable<ApiTokenStrict, ApiTokenInput>(
    db,
    API_TOKENS,
    {
      encode: (t) => t,
      decode: mapToken
    },
    reads
  )
  const userByToken = db.prepare(
    'SELECT u.* FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token = ? AND u.deleted_at IS NULL'
  )
  return {
    ...table,
    /** The (not deleted) user a token value belongs to. */
    userByToken(token: string): UserRow | undefined {
      const r = userByToken.get(token) as Row | undefined
      return r ? mapUser(r) : undefined
    }
  }
}

export function apiTokenRoutes(tokens: ApiTokenStorage): RouteTable {
  return ownedCrud({
    path: '/api-tokens',
    what: 'API token',
    table: tokens,
    create: {
      schema: ApiTokenCreate,
      input: (b) => ({ description: b.description, token: newApiTokenValue() })
    }
  })
}
