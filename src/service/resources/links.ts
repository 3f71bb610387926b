/**
 * Links between an agent and another resource: agent ↔ document (`/agent-documents`) and
 * agent ↔ tool (`/agent-tools`). Both kinds are one shape with other names, so one `linkKind`
 * describes a kind and `linkStorage` / `linkRoutes` serve every kind.
 */
import { z } from 'zod'
import { AgentDocumentCreate, AgentToolCreate, type UserStrict } from '../../shared'
import type { Db } from '../db'
import { conflict, validate } from '../http'
import { crud, flag, must, page, type RouteTable } from '../routes'
import { afterRow, onFirstUse, PageEnds } from '../pageEnds'
import { createTableSql, isUniqueViolation, NEWEST, newId, nowStamp, str } from '../sql'
import type { Page, Row, TableDef } from '../sql'

/** One kind of link: its table, path, and the other end's names. */
export interface LinkKind {
  table: string
  path: string
  /** What a 404 names, e.g. 'Agent document'. */
  what: string
  /** The other end: JSON field (`document`), its id field (`documentId`), column, 404 name. */
  other: { field: string; idField: string; column: string; what: string }
  /** The create body schema ({agentId, <other>Id}). */
  create: z.ZodType<Record<string, string>>
  duplicate: string
}

/** The kind linking agents to `other` (singular, e.g. 'document'), whose 404 name is `what`. */
function linkKind(other: string, what: string, create: LinkKind['create']): LinkKind {
  return {
    table: `agent_${other}s`,
    path: `/agent-${other}s`,
    what: `Agent ${other}`,
    other: { field: other, idField: `${other}Id`, column: `${other}_id`, what },
    create,
    duplicate: `This ${other} is already linked to this agent`
  }
}
export const AGENT_DOCUMENTS = linkKind('document', 'Document', AgentDocumentCreate)
export const AGENT_TOOLS = linkKind('tool', 'Tool', AgentToolCreate)

const tableDef = (k: LinkKind): TableDef => ({
  table: k.table,
  columns: {
    agent_id: 'TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE',
    [k.other.column]: `TEXT NOT NULL REFERENCES ${k.other.field}s(id) ON DELETE CASCADE`
  },
  updatedAt: false,
  constraints: `UNIQUE (agent_id, ${k.other.column})`,
  extra: `
  CREATE INDEX ${k.table}_${k.other.field} ON ${k.table}(${k.other.column});`
})

export const migrations = {
  1: createTableSql(tableDef(AGENT_DOCUMENTS)) + createTableSql(tableDef(AGENT_TOOLS))
}

/** Reads of the two ends, for expanded links (`{}` when missing). */
export interface LinkEnds {
  agent(user: UserStrict, id: string): unknown
  other(user: UserStrict, id: string): unknown
}

export type LinkStorage = ReturnType<typeof linkStorage>

export function linkStorage(db: Db, k: LinkKind, ends: LinkEnds) {
  const cols = `id, user_id, agent_id, ${k.other.column}, created_at`
  const s = {
    insert: db.prepare(`INSERT INTO ${k.table} (${cols}) VALUES (?, ?, ?, ?, ?)`),
    get: db.prepare(`SELECT ${cols} FROM ${k.table} WHERE id = ? AND user_id = ?`),
    list: db.prepare(
      `SELECT ${cols}, seq FROM ${k.table} WHERE user_id = :uid
          AND (:agent IS NULL OR agent_id = :agent) ${NEWEST} LIMIT :take OFFSET :skip`
    ),
    listAfter: onFirstUse(() =>
      db.prepare(
        `SELECT ${cols}, seq FROM ${k.table} WHERE user_id = :uid
          AND (:agent IS NULL OR agent_id = :agent) AND ${afterRow(k.table)} ${NEWEST} LIMIT :take`
      )
    ),
    remove: db.prepare(`DELETE FROM ${k.table} WHERE id = ? AND user_id = ?`)
  }
  // Where pages ended: the next one begins there (an agent's, a document's or tool's, or a user's
  // deletion takes their links along).
  const pageEnds = new PageEnds(db, [k.table, 'agents', `${k.other.field}s`, 'users'])
  /** The link in the field order of AgentDocumentStrict / AgentToolStrict. */
  function shape(user: UserStrict, r: Row, expand: boolean): Record<string, unknown> {
    const agentId = str(r.agent_id)
    const otherId = str(r[k.other.column])
    return {
      id: str(r.id),
      userId: str(r.user_id),
      user,
      agent: expand ? (ends.agent(user, agentId) ?? {}) : {},
      agentId,
      [k.other.field]: expand ? (ends.other(user, otherId) ?? {}) : {},
      [k.other.idField]: otherId,
      createdAt: str(r.created_at)
    }
  }
  return {
    /** Returns undefined when the same link exists already. */
    create(user: UserStrict, agentId: string, otherId: string): string | undefined {
      const id = newId()
      try {
        s.insert.run(id, user.id, agentId, otherId, nowStamp())
      } catch (e) {
        if (isUniqueViolation(e)) return undefined
        throw e
      }
      return id
    },
    get(user: UserStrict, id: string, expand: boolean): Record<string, unknown> | undefined {
      const r = s.get.get(id, user.id) as Row | undefined
      return r ? shape(user, r, expand) : undefined
    },
    list(user: UserStrict, agentId: string | null, expand: boolean, p: Page): Record<string, unknown>[] {
      // The user's links, or one agent's: each list's pages end apart.
      const list = `${user.id}\n${agentId ?? ''}`
      const { at, start } = pageEnds.begin(list, p.skip)
      const params = { uid: user.id, agent: agentId, take: p.take, ...start }
      const rows = ('after' in start ? s.listAfter() : s.list).all(params) as Row[]
      pageEnds.read(list, p.skip, p.take, rows.length, rows.at(-1)?.seq, at)
      return rows.map((r) => shape(user, r, expand))
    },
    /** Where the users' pages of links ended (the next page begins there). */
    pageEnds,
    remove(user: UserStrict, id: string): boolean {
      return s.remove.run(id, user.id).changes > 0
    }
  }
}

const AgentFilter = z.string().min(1, 'Expected an agent id')
function agentFilter(query: URLSearchParams | null): string | null {
  const v = query?.get('filter[agentId]') ?? query?.get('agentId')
  if (v === null || v === undefined) return null
  return validate(AgentFilter, v, 'filter[agentId]')
}

export function linkRoutes(k: LinkKind, links: LinkStorage, ends: LinkEnds): RouteTable {
  return crud({
    path: k.path,
    what: k.what,
    list: (ctx) => links.list(ctx.user, agentFilter(ctx.query), flag(ctx.query, 'expand'), page(ctx.query)),
    get: (ctx, linkId) => links.get(ctx.user, linkId, true),
    remove: (ctx, linkId) => links.remove(ctx.user, linkId),
    create(ctx) {
      const b = validate(k.create, ctx.body)
      const agentId = b.agentId as string
      const otherId = b[k.other.idField] as string
      must(ends.agent(ctx.user, agentId), 'Agent')
      must(ends.other(ctx.user, otherId), k.other.what)
      const linkId = links.create(ctx.user, agentId, otherId)
      if (linkId === undefined) throw conflict(k.duplicate)
      return must(links.get(ctx.user, linkId, true), k.what)
    }
  })
}
