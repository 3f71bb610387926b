/**
 * Data access for the embedded service. Every query is a cached prepared statement; every
 * read and change is scoped to the owner, so another user's row is simply "not there".
 * Rows are mapped column by column (libsql rows may carry an extra `_metadata` key).
 */
import { randomUUID } from 'node:crypto'
import {
  formatTimestamp,
  type AgentDocumentStrict,
  type AgentStrict,
  type AgentToolStrict,
  type ApiTokenStrict,
  type DocumentStrict,
  type PromptStrict,
  type TagStrict,
  type ToolStrict,
  type UserStrict
} from '../shared'
import type { Db } from './db'

// ---------------------------------------------------------------------------------------------
// Clock and ids
// ---------------------------------------------------------------------------------------------

let lastMicros = 0
/** Now as a contract timestamp; strictly increasing within the process (microsecond steps). */
export function nowStamp(): string {
  let us = Date.now() * 1000
  if (us <= lastMicros) us = lastMicros + 1
  lastMicros = us
  return formatTimestamp(new Date(Math.floor(us / 1000)), us % 1000)
}

export const newId = (): string => randomUUID()

// ---------------------------------------------------------------------------------------------
// Row types
// ---------------------------------------------------------------------------------------------

export interface UserRow {
  id: string
  email: string
  name: string
  password_hash: string
  created_at: string
  updated_at: string
  deleted_at: string | null
}

type Row = Record<string, unknown>

const str = (v: unknown): string => (typeof v === 'string' ? v : String(v))
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : str(v))
const intOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v))
function jsonObj(v: unknown): Record<string, unknown> {
  if (typeof v !== 'string') return {}
  const parsed: unknown = JSON.parse(v)
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : {}
}
function jsonObjOrNull(v: unknown): Record<string, unknown> | null {
  return v === null || v === undefined ? null : jsonObj(v)
}

function mapUser(r: Row): UserRow {
  return {
    id: str(r.id),
    email: str(r.email),
    name: str(r.name),
    password_hash: str(r.password_hash),
    created_at: str(r.created_at),
    updated_at: str(r.updated_at),
    deleted_at: strOrNull(r.deleted_at)
  }
}

const userJsonCache = new WeakMap<UserStrict, string>()
/** JSON text of a public user (memoised per object: the same user object serves many rows). */
export function userJson(user: UserStrict): string {
  let j = userJsonCache.get(user)
  if (j === undefined) {
    j = JSON.stringify(user)
    userJsonCache.set(user, j)
  }
  return j
}

export function publicUser(u: UserRow): UserStrict {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    createdAt: u.created_at,
    updatedAt: u.updated_at,
    deletedAt: u.deleted_at,
    profile: null,
    Agent: null,
    ApiToken: null,
    Document: null
  }
}

const DOC_COLS = `id, user_id, name, type, url, from_page, to_page, metadata, authorization, splitter, created_at, updated_at`
function mapDocument(r: Row, user: UserStrict, p = ''): DocumentStrict {
  return {
    id: str(r[`${p}id`]),
    userId: str(r[`${p}user_id`]),
    user,
    name: str(r[`${p}name`]),
    type: str(r[`${p}type`]) as DocumentStrict['type'],
    url: str(r[`${p}url`]),
    from_page: intOrNull(r[`${p}from_page`]),
    to_page: intOrNull(r[`${p}to_page`]),
    metadata: jsonObj(r[`${p}metadata`]),
    authorization: jsonObjOrNull(r[`${p}authorization`]),
    splitter: jsonObjOrNull(r[`${p}splitter`]),
    createdAt: str(r[`${p}created_at`]),
    updatedAt: str(r[`${p}updated_at`]),
    index: null,
    Agent: null
  }
}

const TAG_COLS = `id, user_id, name, color, created_at, updated_at`
function mapTag(r: Row): TagStrict {
  return {
    id: str(r.id),
    name: str(r.name),
    color: str(r.color),
    userId: str(r.user_id),
    createdAt: str(r.created_at),
    updatedAt: str(r.updated_at)
  }
}

const PROMPT_COLS = `id, user_id, name, template, input_variables, created_at, updated_at`
function mapPrompt(r: Row): PromptStrict {
  const vars: unknown = JSON.parse(str(r.input_variables))
  return {
    id: str(r.id),
    userId: str(r.user_id),
    name: str(r.name),
    template: str(r.template),
    input_variables: Array.isArray(vars) ? vars.map(str) : [],
    createdAt: str(r.created_at),
    updatedAt: str(r.updated_at)
  }
}

const TOOL_COLS = `id, user_id, name, type, description, metadata, created_at, updated_at`
function mapTool(r: Row, user: UserStrict): ToolStrict {
  return {
    id: str(r.id),
    userId: str(r.user_id),
    user,
    name: str(r.name),
    type: str(r.type) as ToolStrict['type'],
    description: str(r.description),
    metadata: jsonObj(r.metadata),
    createdAt: str(r.created_at),
    updatedAt: str(r.updated_at)
  }
}

const TOKEN_COLS = `id, user_id, description, token, created_at`
function mapToken(r: Row, user: UserStrict): ApiTokenStrict {
  return {
    id: str(r.id),
    userId: str(r.user_id),
    user,
    description: str(r.description),
    token: str(r.token),
    createdAt: str(r.created_at)
  }
}

/**
 * An agent as JSON, built by SQLite in one pass: its tags, embedded document and the embedded
 * owner (bound as `:user`, a JSON text) come along, so a get is one statement and a list of
 * 10,000 agents is one row, with no per-agent work in JavaScript. Field order follows AgentStrict.
 */
const AGENT_JSON = `json_object(
  'id', a.id, 'userId', a.user_id, 'user', json(:user),
  'document', CASE WHEN d.id IS NULL THEN json_object() ELSE json_object(
    'id', d.id, 'userId', d.user_id, 'user', json(:user), 'name', d.name, 'type', d.type, 'url', d.url,
    'from_page', d.from_page, 'to_page', d.to_page, 'metadata', json(d.metadata),
    'authorization', json(d.authorization), 'splitter', json(d.splitter),
    'createdAt', d.created_at, 'updatedAt', d.updated_at, 'index', NULL, 'Agent', NULL) END,
  'documentId', a.document_id, 'promptId', a.prompt_id, 'name', a.name, 'type', a.type,
  'tags', (SELECT json_group_array(json_object('id', t.id, 'name', t.name, 'color', t.color, 'userId', t.user_id,
      'createdAt', t.created_at, 'updatedAt', t.updated_at) ORDER BY x.position)
    FROM agent_tags x JOIN tags t ON t.id = x.tag_id WHERE x.agent_id = a.id),
  'llm', json_object('provider', a.llm_provider, 'model', a.llm_model),
  'hasMemory', json(CASE WHEN a.has_memory THEN 'true' ELSE 'false' END),
  'AgentMemory', NULL, 'createdAt', a.created_at, 'updatedAt', a.updated_at)`
const AGENT_FROM = `FROM agents a LEFT JOIN documents d ON d.id = a.document_id`

export interface Page {
  skip: number
  take: number // -1 = all
}
export const ALL: Page = { skip: 0, take: -1 }

const NEWEST = 'ORDER BY created_at DESC, seq DESC'

/** Thrown for a UNIQUE constraint violation, so callers can answer 409. */
export function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code
  return (
    typeof code === 'string' &&
    (code.startsWith('SQLITE_CONSTRAINT_UNIQUE') || code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
  )
}

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

export interface AgentInput {
  name: string
  type: string
  provider: string
  model: string
  hasMemory: boolean
  promptId: string | null
  documentId: string | null
  tagIds: string[]
}

export class Store {
  private readonly s
  constructor(private readonly db: Db) {
    const p = (sql: string) => db.prepare(sql)
    this.s = {
      getSetting: p('SELECT value FROM settings WHERE key = ?'),
      setSetting: p(
        'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'
      ),
      userById: p('SELECT * FROM users WHERE id = ? AND deleted_at IS NULL'),
      userByEmail: p('SELECT * FROM users WHERE email = ?'),
      insertUser: p(
        'INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)'
      ),
      userByToken: p(
        'SELECT u.* FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token = ? AND u.deleted_at IS NULL'
      ),
      // documents
      insertDoc: p(`INSERT INTO documents (${DOC_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      getDoc: p(`SELECT ${DOC_COLS} FROM documents WHERE id = ? AND user_id = ?`),
      listDocs: p(`SELECT ${DOC_COLS} FROM documents WHERE user_id = ? ${NEWEST} LIMIT ? OFFSET ?`),
      renameDoc: p('UPDATE documents SET name = ?, updated_at = ? WHERE id = ? AND user_id = ?'),
      deleteDoc: p('DELETE FROM documents WHERE id = ? AND user_id = ?'),
      // prompts
      insertPrompt: p(`INSERT INTO prompts (${PROMPT_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?)`),
      getPrompt: p(`SELECT ${PROMPT_COLS} FROM prompts WHERE id = ? AND user_id = ?`),
      listPrompts: p(`SELECT ${PROMPT_COLS} FROM prompts WHERE user_id = ? ${NEWEST} LIMIT ? OFFSET ?`),
      updatePrompt: p(
        'UPDATE prompts SET name = ?, template = ?, input_variables = ?, updated_at = ? WHERE id = ? AND user_id = ?'
      ),
      deletePrompt: p('DELETE FROM prompts WHERE id = ? AND user_id = ?'),
      // tags
      insertTag: p(`INSERT INTO tags (${TAG_COLS}) VALUES (?, ?, ?, ?, ?, ?)`),
      getTag: p(`SELECT ${TAG_COLS} FROM tags WHERE id = ? AND user_id = ?`),
      listTags: p(`SELECT ${TAG_COLS} FROM tags WHERE user_id = ? ${NEWEST} LIMIT ? OFFSET ?`),
      updateTag: p('UPDATE tags SET name = ?, color = ?, updated_at = ? WHERE id = ? AND user_id = ?'),
      deleteTag: p('DELETE FROM tags WHERE id = ? AND user_id = ?'),
      // tools
      insertTool: p(`INSERT INTO tools (${TOOL_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
      getTool: p(`SELECT ${TOOL_COLS} FROM tools WHERE id = ? AND user_id = ?`),
      listTools: p(`SELECT ${TOOL_COLS} FROM tools WHERE user_id = ? ${NEWEST} LIMIT ? OFFSET ?`),
      updateTool: p(
        'UPDATE tools SET name = ?, type = ?, description = ?, metadata = ?, updated_at = ? WHERE id = ? AND user_id = ?'
      ),
      deleteTool: p('DELETE FROM tools WHERE id = ? AND user_id = ?'),
      // api tokens
      insertToken: p(`INSERT INTO api_tokens (${TOKEN_COLS}) VALUES (?, ?, ?, ?, ?)`),
      getToken: p(`SELECT ${TOKEN_COLS} FROM api_tokens WHERE id = ? AND user_id = ?`),
      listTokens: p(`SELECT ${TOKEN_COLS} FROM api_tokens WHERE user_id = ? ${NEWEST} LIMIT ? OFFSET ?`),
      deleteToken: p('DELETE FROM api_tokens WHERE id = ? AND user_id = ?'),
      // agents
      insertAgent: p(
        `INSERT INTO agents (id, user_id, name, type, llm_provider, llm_model, has_memory, prompt_id, document_id,
          created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
      ),
      updateAgent: p(
        `UPDATE agents SET name = ?, type = ?, llm_provider = ?, llm_model = ?, has_memory = ?, prompt_id = ?,
          document_id = ?, updated_at = ? WHERE id = ? AND user_id = ?`
      ),
      getAgent: p(`SELECT ${AGENT_JSON} AS j ${AGENT_FROM} WHERE a.id = :id AND a.user_id = :uid`),
      listAgents: p(
        `SELECT '[' || coalesce(group_concat(j, ',' ORDER BY ca DESC, seq DESC), '') || ']' AS j FROM (SELECT ${AGENT_JSON} AS j,
          a.created_at AS ca, a.seq AS seq ${AGENT_FROM} WHERE a.user_id = :uid
          ORDER BY a.created_at DESC, a.seq DESC LIMIT :take OFFSET :skip)`
      ),
      insertAgentTag: p('INSERT OR IGNORE INTO agent_tags (agent_id, tag_id, position) VALUES (?, ?, ?)'),
      clearAgentTags: p('DELETE FROM agent_tags WHERE agent_id = ?'),
      deleteAgent: p('DELETE FROM agents WHERE id = ? AND user_id = ?'),
      // links
      insertAgentDoc: p(
        'INSERT INTO agent_documents (id, user_id, agent_id, document_id, created_at) VALUES (?, ?, ?, ?, ?)'
      ),
      getAgentDoc: p(
        'SELECT id, user_id, agent_id, document_id, created_at FROM agent_documents WHERE id = ? AND user_id = ?'
      ),
      listAgentDocs: p(
        `SELECT id, user_id, agent_id, document_id, created_at FROM agent_documents WHERE user_id = ?
          AND (?2 IS NULL OR agent_id = ?2) ${NEWEST} LIMIT ? OFFSET ?`
      ),
      deleteAgentDoc: p('DELETE FROM agent_documents WHERE id = ? AND user_id = ?'),
      insertAgentTool: p(
        'INSERT INTO agent_tools (id, user_id, agent_id, tool_id, created_at) VALUES (?, ?, ?, ?, ?)'
      ),
      getAgentTool: p(
        'SELECT id, user_id, agent_id, tool_id, created_at FROM agent_tools WHERE id = ? AND user_id = ?'
      ),
      listAgentTools: p(
        `SELECT id, user_id, agent_id, tool_id, created_at FROM agent_tools WHERE user_id = ?
          AND (?2 IS NULL OR agent_id = ?2) ${NEWEST} LIMIT ? OFFSET ?`
      ),
      deleteAgentTool: p('DELETE FROM agent_tools WHERE id = ? AND user_id = ?')
    }
  }

  /** Runs fn in a transaction (joins the current one when already inside: libsql does not nest). */
  transaction<T>(fn: () => T): T {
    if (this.db.inTransaction) return fn()
    return this.db.transaction(fn)()
  }

  // settings ----------------------------------------------------------------------------------
  getSetting(key: string): string | undefined {
    const r = this.s.getSetting.get(key) as Row | undefined
    return r ? str(r.value) : undefined
  }
  setSetting(key: string, value: string) {
    this.s.setSetting.run(key, value)
  }

  // users -------------------------------------------------------------------------------------
  /** Users are never changed once created (no such operation), so lookups by id are cached. */
  private readonly userCache = new Map<string, UserRow>()
  userById(id: string): UserRow | undefined {
    const cached = this.userCache.get(id)
    if (cached) return cached
    const r = this.s.userById.get(id) as Row | undefined
    if (!r) return undefined
    const user = mapUser(r)
    if (this.userCache.size >= 1024) this.userCache.clear()
    this.userCache.set(id, user)
    return user
  }
  userByEmail(email: string): UserRow | undefined {
    const r = this.s.userByEmail.get(email) as Row | undefined
    return r ? mapUser(r) : undefined
  }
  userByApiToken(token: string): UserRow | undefined {
    const r = this.s.userByToken.get(token) as Row | undefined
    return r ? mapUser(r) : undefined
  }
  /** Creates a user; returns undefined when the e-mail is taken. */
  createUser(email: string, name: string, passwordHash: string): UserRow | undefined {
    const now = nowStamp()
    const id = newId()
    try {
      this.s.insertUser.run(id, email, name, passwordHash, now, now)
    } catch (e) {
      if (isUniqueViolation(e)) return undefined
      throw e
    }
    return {
      id,
      email,
      name,
      password_hash: passwordHash,
      created_at: now,
      updated_at: now,
      deleted_at: null
    }
  }

  // documents ---------------------------------------------------------------------------------
  createDocument(user: UserStrict, input: DocumentInput): DocumentStrict {
    const now = nowStamp()
    const id = newId()
    this.s.insertDoc.run(
      id,
      user.id,
      input.name,
      input.type,
      input.url,
      input.from_page,
      input.to_page,
      JSON.stringify(input.metadata),
      input.authorization === null ? null : JSON.stringify(input.authorization),
      input.splitter === null ? null : JSON.stringify(input.splitter),
      now,
      now
    )
    return this.getDocument(user, id) as DocumentStrict
  }
  getDocument(user: UserStrict, id: string): DocumentStrict | undefined {
    const r = this.s.getDoc.get(id, user.id) as Row | undefined
    return r ? mapDocument(r, user) : undefined
  }
  listDocuments(user: UserStrict, page: Page): DocumentStrict[] {
    return (this.s.listDocs.all(user.id, page.take, page.skip) as Row[]).map((r) => mapDocument(r, user))
  }
  renameDocument(user: UserStrict, id: string, name: string): DocumentStrict | undefined {
    const changed = this.s.renameDoc.run(name, nowStamp(), id, user.id).changes
    return changed ? this.getDocument(user, id) : undefined
  }
  deleteDocument(user: UserStrict, id: string): boolean {
    return this.s.deleteDoc.run(id, user.id).changes > 0
  }

  // prompts -----------------------------------------------------------------------------------
  createPrompt(user: UserStrict, name: string, template: string, vars: string[]): PromptStrict {
    const now = nowStamp()
    const id = newId()
    this.s.insertPrompt.run(id, user.id, name, template, JSON.stringify(vars), now, now)
    return this.getPrompt(user, id) as PromptStrict
  }
  getPrompt(user: UserStrict, id: string): PromptStrict | undefined {
    const r = this.s.getPrompt.get(id, user.id) as Row | undefined
    return r ? mapPrompt(r) : undefined
  }
  listPrompts(user: UserStrict, page: Page): PromptStrict[] {
    return (this.s.listPrompts.all(user.id, page.take, page.skip) as Row[]).map(mapPrompt)
  }
  updatePrompt(user: UserStrict, p: PromptStrict): PromptStrict | undefined {
    const changed = this.s.updatePrompt.run(
      p.name,
      p.template,
      JSON.stringify(p.input_variables),
      nowStamp(),
      p.id,
      user.id
    ).changes
    return changed ? this.getPrompt(user, p.id) : undefined
  }
  deletePrompt(user: UserStrict, id: string): boolean {
    return this.s.deletePrompt.run(id, user.id).changes > 0
  }

  // tags --------------------------------------------------------------------------------------
  createTag(user: UserStrict, name: string, color: string): TagStrict {
    const now = nowStamp()
    const id = newId()
    this.s.insertTag.run(id, user.id, name, color, now, now)
    return this.getTag(user, id) as TagStrict
  }
  getTag(user: UserStrict, id: string): TagStrict | undefined {
    const r = this.s.getTag.get(id, user.id) as Row | undefined
    return r ? mapTag(r) : undefined
  }
  listTags(user: UserStrict, page: Page): TagStrict[] {
    return (this.s.listTags.all(user.id, page.take, page.skip) as Row[]).map(mapTag)
  }
  updateTag(user: UserStrict, t: TagStrict): TagStrict | undefined {
    const changed = this.s.updateTag.run(t.name, t.color, nowStamp(), t.id, user.id).changes
    return changed ? this.getTag(user, t.id) : undefined
  }
  deleteTag(user: UserStrict, id: string): boolean {
    return this.s.deleteTag.run(id, user.id).changes > 0
  }

  // tools -------------------------------------------------------------------------------------
  createTool(
    user: UserStrict,
    input: { name: string; type: string; description: string; metadata: Record<string, unknown> }
  ): ToolStrict {
    const now = nowStamp()
    const id = newId()
    this.s.insertTool.run(
      id,
      user.id,
      input.name,
      input.type,
      input.description,
      JSON.stringify(input.metadata),
      now,
      now
    )
    return this.getTool(user, id) as ToolStrict
  }
  getTool(user: UserStrict, id: string): ToolStrict | undefined {
    const r = this.s.getTool.get(id, user.id) as Row | undefined
    return r ? mapTool(r, user) : undefined
  }
  listTools(user: UserStrict, page: Page): ToolStrict[] {
    return (this.s.listTools.all(user.id, page.take, page.skip) as Row[]).map((r) => mapTool(r, user))
  }
  updateTool(user: UserStrict, t: ToolStrict): ToolStrict | undefined {
    const changed = this.s.updateTool.run(
      t.name,
      t.type,
      t.description,
      JSON.stringify(t.metadata),
      nowStamp(),
      t.id,
      user.id
    ).changes
    return changed ? this.getTool(user, t.id) : undefined
  }
  deleteTool(user: UserStrict, id: string): boolean {
    return this.s.deleteTool.run(id, user.id).changes > 0
  }

  // api tokens --------------------------------------------------------------------------------
  createApiToken(user: UserStrict, description: string, token: string): ApiTokenStrict {
    const id = newId()
    this.s.insertToken.run(id, user.id, description, token, nowStamp())
    return this.getApiToken(user, id) as ApiTokenStrict
  }
  getApiToken(user: UserStrict, id: string): ApiTokenStrict | undefined {
    const r = this.s.getToken.get(id, user.id) as Row | undefined
    return r ? mapToken(r, user) : undefined
  }
  listApiTokens(user: UserStrict, page: Page): ApiTokenStrict[] {
    return (this.s.listTokens.all(user.id, page.take, page.skip) as Row[]).map((r) => mapToken(r, user))
  }
  deleteApiToken(user: UserStrict, id: string): boolean {
    return this.s.deleteToken.run(id, user.id).changes > 0
  }

  // agents ------------------------------------------------------------------------------------
  /** Creates the agent and its tag links in one transaction; returns the agent's response JSON. */
  createAgentJson(user: UserStrict, input: AgentInput): string {
    const id = newId()
    this.transaction(() => {
      const now = nowStamp()
      this.s.insertAgent.run(
        id,
        user.id,
        input.name,
        input.type,
        input.provider,
        input.model,
        input.hasMemory ? 1 : 0,
        input.promptId,
        input.documentId,
        now,
        now
      )
      input.tagIds.forEach((tagId, i) => this.s.insertAgentTag.run(id, tagId, i))
    })
    return this.getAgentJson(user, id) as string
  }
  updateAgent(
    user: UserStrict,
    id: string,
    input: AgentInput,
    replaceTags: boolean
  ): AgentStrict | undefined {
    const changed = this.transaction(() => {
      const n = this.s.updateAgent.run(
        input.name,
        input.type,
        input.provider,
        input.model,
        input.hasMemory ? 1 : 0,
        input.promptId,
        input.documentId,
        nowStamp(),
        id,
        user.id
      ).changes
      if (n && replaceTags) {
        this.s.clearAgentTags.run(id)
        input.tagIds.forEach((tagId, i) => this.s.insertAgentTag.run(id, tagId, i))
      }
      return n
    })
    return changed ? this.getAgent(user, id) : undefined
  }
  /** The agent as response JSON text (what GET /agents/{id} sends), or undefined. */
  getAgentJson(user: UserStrict, id: string): string | undefined {
    const r = this.s.getAgent.get({ id, uid: user.id, user: userJson(user) }) as Row | undefined
    return r ? str(r.j) : undefined
  }
  getAgent(user: UserStrict, id: string): AgentStrict | undefined {
    const j = this.getAgentJson(user, id)
    return j === undefined ? undefined : (JSON.parse(j) as AgentStrict)
  }
  /** The page of agents as one JSON array text, newest first. */
  listAgentsJson(user: UserStrict, page: Page): string {
    const r = this.s.listAgents.get({
      uid: user.id,
      user: userJson(user),
      take: page.take,
      skip: page.skip
    }) as Row | undefined
    return r ? str(r.j) : '[]'
  }
  deleteAgent(user: UserStrict, id: string): boolean {
    return this.s.deleteAgent.run(id, user.id).changes > 0
  }

  // links -------------------------------------------------------------------------------------
  /** Returns undefined when the same agent+document link exists already. */
  createAgentDocument(user: UserStrict, agentId: string, documentId: string): string | undefined {
    const id = newId()
    try {
      this.s.insertAgentDoc.run(id, user.id, agentId, documentId, nowStamp())
    } catch (e) {
      if (isUniqueViolation(e)) return undefined
      throw e
    }
    return id
  }
  getAgentDocument(user: UserStrict, id: string, expand: boolean): AgentDocumentStrict | undefined {
    const r = this.s.getAgentDoc.get(id, user.id) as Row | undefined
    return r ? this.shapeAgentDocument(user, r, expand) : undefined
  }
  listAgentDocuments(
    user: UserStrict,
    agentId: string | null,
    expand: boolean,
    page: Page
  ): AgentDocumentStrict[] {
    const rows = this.s.listAgentDocs.all(user.id, agentId, page.take, page.skip) as Row[]
    return rows.map((r) => this.shapeAgentDocument(user, r, expand))
  }
  deleteAgentDocument(user: UserStrict, id: string): boolean {
    return this.s.deleteAgentDoc.run(id, user.id).changes > 0
  }
  private shapeAgentDocument(user: UserStrict, r: Row, expand: boolean): AgentDocumentStrict {
    const agentId = str(r.agent_id)
    const documentId = str(r.document_id)
    return {
      id: str(r.id),
      userId: str(r.user_id),
      user,
      agent: expand ? (this.getAgent(user, agentId) ?? {}) : {},
      agentId,
      document: expand ? (this.getDocument(user, documentId) ?? {}) : {},
      documentId,
      createdAt: str(r.created_at)
    }
  }

  createAgentTool(user: UserStrict, agentId: string, toolId: string): string | undefined {
    const id = newId()
    try {
      this.s.insertAgentTool.run(id, user.id, agentId, toolId, nowStamp())
    } catch (e) {
      if (isUniqueViolation(e)) return undefined
      throw e
    }
    return id
  }
  getAgentTool(user: UserStrict, id: string, expand: boolean): AgentToolStrict | undefined {
    const r = this.s.getAgentTool.get(id, user.id) as Row | undefined
    return r ? this.shapeAgentTool(user, r, expand) : undefined
  }
  listAgentTools(user: UserStrict, agentId: string | null, expand: boolean, page: Page): AgentToolStrict[] {
    const rows = this.s.listAgentTools.all(user.id, agentId, page.take, page.skip) as Row[]
    return rows.map((r) => this.shapeAgentTool(user, r, expand))
  }
  deleteAgentTool(user: UserStrict, id: string): boolean {
    return this.s.deleteAgentTool.run(id, user.id).changes > 0
  }
  private shapeAgentTool(user: UserStrict, r: Row, expand: boolean): AgentToolStrict {
    const agentId = str(r.agent_id)
    const toolId = str(r.tool_id)
    return {
      id: str(r.id),
      userId: str(r.user_id),
      user,
      agent: expand ? (this.getAgent(user, agentId) ?? {}) : {},
      agentId,
      tool: expand ? (this.getTool(user, toolId) ?? {}) : {},
      toolId,
      createdAt: str(r.created_at)
    }
  }
}
