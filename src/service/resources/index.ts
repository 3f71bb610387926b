/**
 * The service's resources, listed once: their tables (as migrations, in this order), their
 * storage, and their route tables. Adding a resource = a module in this folder + a line in
 * each list below.
 */
import type { UserStrict } from '../../shared'
import { composeMigrations, type Db } from '../db'
import type { LongReads } from '../reads'
import type { RouteTable } from '../routes'
import * as idempotency from '../idempotency'
import * as revocation from '../revocation'
import * as settings from '../settings'
import * as agents from './agents'
import * as apiTokens from './apiTokens'
import * as documents from './documents'
import * as links from './links'
import * as prompts from './prompts'
import * as tags from './tags'
import * as tools from './tools'
import * as users from './users'

/** Ordered migrations (index + 1 = schema version). Tables come before those that reference them. */
export const MIGRATIONS = composeMigrations([
  settings.migrations,
  users.migrations,
  documents.migrations,
  prompts.migrations,
  tags.migrations,
  agents.migrations,
  tools.migrations,
  apiTokens.migrations,
  links.migrations,
  revocation.migrations,
  idempotency.migrations
])
export const SCHEMA_VERSION = MIGRATIONS.length

export type Storage = ReturnType<typeof openStorage>

/**
 * Prepares every resource's statements on an open database; `reads`: long lists are read on
 * connections of their own (reads.ts), else on `db` whole.
 */
export function openStorage(db: Db, reads: LongReads | null = null) {
  const s = {
    settings: settings.settingsStorage(db),
    users: users.usersStorage(db),
    documents: documents.documentsStorage(db, reads),
    prompts: prompts.promptsStorage(db, reads),
    tags: tags.tagsStorage(db, reads),
    tools: tools.toolsStorage(db, reads),
    apiTokens: apiTokens.apiTokensStorage(db, reads),
    agents: agents.agentsStorage(db, reads)
  }
  /** An agent and the other end of a link kind, as expanded links show them. */
  const ends = (other: { get(user: UserStrict, id: string): unknown }): links.LinkEnds => ({
    agent: s.agents.get,
    other: other.get
  })
  const documentEnds = ends(s.documents)
  const toolEnds = ends(s.tools)
  return {
    ...s,
    agentDocuments: { ends: documentEnds, links: links.linkStorage(db, links.AGENT_DOCUMENTS, documentEnds) },
    agentTools: { ends: toolEnds, links: links.linkStorage(db, links.AGENT_TOOLS, toolEnds) }
  }
}

/** Every route of the service. */
export function routeTables(s: Storage, auth: users.AuthOps, passwords = true): RouteTable[] {
  return [
    users.authRoutes(auth, passwords),
    documents.documentRoutes(s.documents),
    apiTokens.apiTokenRoutes(s.apiTokens),
    agents.agentRoutes(s.agents, { prompt: s.prompts.owned, document: s.documents.owned }),
    tools.toolRoutes(s.tools),
    prompts.promptRoutes(s.prompts),
    tags.tagRoutes(s.tags),
    links.linkRoutes(links.AGENT_DOCUMENTS, s.agentDocuments.links, s.agentDocuments.ends),
    links.linkRoutes(links.AGENT_TOOLS, s.agentTools.links, s.agentTools.ends)
  ]
}
