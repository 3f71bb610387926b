/**
 * Agents: tables (agents and their ordered tags), the agent JSON that SQLite builds in one pass,
 * and routes. References (prompt, document, tags) must be the caller's own.
 */
import { AgentCreate, AgentUpdate, type AgentStrict, type FieldIssue, type UserStrict } from '../../shared'
import type { Db } from '../db'
import { invalid, JsonArrayParts, RawJson, validate } from '../http'
import { sentAsRead, textParts, type LongReads } from '../reads'
import { crud, page, type RouteTable } from '../routes'
import { createTableSql, newId, nowStamp, str, transaction } from '../sql'
import type { Page, Row, TableDef } from '../sql'
import { afterRow, onFirstUse, PageEnds } from '../pageEnds'
import { RowMemo } from '../rowMemo'
import { userJson } from './users'

const AGENTS: TableDef = {
  table: 'agents',
  columns: {
    name: 'TEXT NOT NULL',
    type: 'TEXT NOT NULL',
    llm_provider: 'TEXT NOT NULL',
    llm_model: 'TEXT NOT NULL',
    has_memory: 'INTEGER NOT NULL',
    prompt_id: 'TEXT REFERENCES prompts(id) ON DELETE SET NULL',
    document_id: 'TEXT REFERENCES documents(id) ON DELETE SET NULL'
  },
  extra: `
  CREATE INDEX agents_prompt ON agents(prompt_id);
  CREATE INDEX agents_document ON agents(document_id);
  CREATE TABLE agent_tags (
    agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    tag_id TEXT NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    PRIMARY KEY (agent_id, tag_id)
  );
  CREATE INDEX agent_tags_tag ON agent_tags(tag_id);`
}
export const migrations = {
  1: createTableSql(AGENTS),
  // Less to write per new agent: most agents reference no prompt or document, so those indexes
  // hold only rows that do (a foreign key's lookup `x = ?` still uses them), and the tag links
  // are stored in their primary key's own tree (no rowid table beside it).
  3: `
  DROP INDEX agents_prompt;
  DROP INDEX agents_document;
  CREATE INDEX agents_prompt ON agents(prompt_id) WHERE prompt_id IS NOT NULL;
  CREATE INDEX agents_document ON agents(document_id) WHERE document_id IS NOT NULL;
  CREATE TABLE agent_tags_v3 (
    agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    tag_id TEXT NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    PRIMARY KEY (agent_id, tag_id)
  ) WITHOUT ROWID;
  INSERT INTO agent_tags_v3 (agent_id, tag_id, position) SELECT agent_id, tag_id, position FROM agent_tags;
  DROP TABLE agent_tags;
  ALTER TABLE agent_tags_v3 RENAME TO agent_tags;
  CREATE INDEX agent_tags_tag ON agent_tags(tag_id);`
}

/** A tag (`t`) as an agent embeds it, and as a new agent's answer takes it from the reference check. */
const TAG_JSON = `json_object('id', t.id, 'name', t.name, 'color', t.color, 'userId', t.user_id,
      'createdAt', t.created_at, 'updatedAt', t.updated_at)`
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
  'tags', (SELECT json_group_array(${TAG_JSON} ORDER BY x.position)
    FROM agent_tags x JOIN tags t ON t.id = x.tag_id WHERE x.agent_id = a.id),
  'llm', json_object('provider', a.llm_provider, 'model', a.llm_model),
  'hasMemory', json(CASE WHEN a.has_memory THEN 'true' ELSE 'false' END),
  'AgentMemory', NULL, 'createdAt', a.created_at, 'updatedAt', a.updated_at)`
const AGENT_FROM = `FROM agents a LEFT JOIN documents d ON d.id = a.document_id`

/** Where a page of the caller's agents begins: `:skip` rows in, or (`after`) after the row `:after`. */
const pageStart = (after: boolean, alias = '') => (after ? `AND ${afterRow('agents', alias)}` : '')
const pageOffset = (after: boolean) => (after ? '' : 'OFFSET :skip')

/**
 * A page of the caller's agents, newest first, as the text of one JSON array, with its count and
 * the `seq` of its last agent (`last`, pageEnds.ts: found in the index from the page's start, ~0.04
 * ms for a page of 1,000, where a sort of the page's rows for it took 0.56 of 2.0 ms). The page's
 * rows are found in the (user_id, created_at, seq) index alone, and only they are read and joined:
 * a row that `skip` passes over costs an index step, not a row and a document lookup (page 50 of
 * 100,000 agents took ~110 ms against ~40 ms for page 1; then ~65 ms). A page that begins where
 * the page before it ended passes over none (`after`).
 */
const agentsPage = (
  after: boolean
) => `SELECT '[' || coalesce(group_concat(j, ',' ORDER BY ca DESC, seq DESC), '') || ']' AS j,
    count(*) AS n, (SELECT seq FROM agents WHERE user_id = :uid ${pageStart(after)}
      ORDER BY created_at DESC, seq DESC LIMIT 1 OFFSET ${after ? ':take - 1' : ':skip + :take - 1'}) AS last
  FROM (SELECT ${AGENT_JSON} AS j, a.created_at AS ca, a.seq AS seq
    FROM (SELECT seq FROM agents WHERE user_id = :uid ${pageStart(after)}
      ORDER BY created_at DESC, seq DESC LIMIT :take ${pageOffset(after)}) p
    JOIN agents a ON a.seq = p.seq LEFT JOIN documents d ON d.id = a.document_id)`
export const AGENTS_PAGE_SQL = agentsPage(false)
export const AGENTS_PAGE_AFTER_SQL = agentsPage(true)

/**
 * The same agents as rows (each with its `seq`), newest first, for a long page or the whole list
 * (joined in JavaScript, LONG_PAGE). SQLite's `group_concat` of 10,000 agents (7.8 M characters)
 * took 170–270 ms, of 100,000 2.3–3.6 s, against 100–120 ms and 1.2–1.6 s for these rows, and 7–8
 * ms for a page of 1,000. The rows come in the index's order as they are made, with no sort after
 * them: the first of 100,000 comes after ~1 ms, not once all are made (~1.2 s, as when the page of
 * `seq`s above was joined and sorted again), so a whole list is sent as it is read (reads.ts). The
 * page begins at the `skip`-th row of the index alone (~17 ms to skip 95,000), or after the row
 * the page before it ended with (`after`).
 */
const agentsRows = (after: boolean) => `SELECT ${AGENT_JSON} AS j, a.seq AS seq ${AGENT_FROM}
  WHERE a.user_id = :uid AND ${
    after
      ? afterRow('agents', 'a.')
      : `(a.created_at, a.seq) <= (SELECT created_at, seq FROM agents
    WHERE user_id = :uid ORDER BY created_at DESC, seq DESC LIMIT 1 OFFSET :skip)`
  }
  ORDER BY a.created_at DESC, a.seq DESC LIMIT :take`
export const AGENTS_ROWS_SQL = agentsRows(false)
export const AGENTS_ROWS_AFTER_SQL = agentsRows(true)
/** Pages longer than this (and the whole list) are read as rows (AGENTS_ROWS_SQL). */
export const LONG_PAGE = 2000

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

export type AgentStorage = ReturnType<typeof agentsStorage>

export function agentsStorage(db: Db, reads: LongReads | null = null) {
  const s = {
    insert: db.prepare(
      `INSERT INTO agents (id, user_id, name, type, llm_provider, llm_model, has_memory, prompt_id, document_id,
          created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
    ),
    update: db.prepare(
      `UPDATE agents SET name = ?, type = ?, llm_provider = ?, llm_model = ?, has_memory = ?, prompt_id = ?,
          document_id = ?, updated_at = ? WHERE id = ? AND user_id = ?`
    ),
    tag: db.prepare(`SELECT ${TAG_JSON} AS j FROM tags t WHERE t.id = ? AND t.user_id = ?`),
    get: db.prepare(`SELECT ${AGENT_JSON} AS j ${AGENT_FROM} WHERE a.id = :id AND a.user_id = :uid`),
    list: db.prepare(AGENTS_PAGE_SQL),
    listAfter: onFirstUse(() => db.prepare(AGENTS_PAGE_AFTER_SQL)),
    rows: db.prepare(AGENTS_ROWS_SQL).raw(),
    rowsAfter: onFirstUse(() => db.prepare(AGENTS_ROWS_AFTER_SQL).raw()),
    // The tags in order, in one statement: a JSON array's index is the tag's position.
    insertTags: db.prepare(
      'INSERT OR IGNORE INTO agent_tags (agent_id, tag_id, position) SELECT ?, value, key FROM json_each(?)'
    ),
    clearTags: db.prepare('DELETE FROM agent_tags WHERE agent_id = ?'),
    remove: db.prepare('DELETE FROM agents WHERE id = ? AND user_id = ?')
  }
  // The tags agents name, as last read: a user's few tags are named again and again, and each
  // read is a statement (~10 µs of a ~180 µs POST). A user's deletion takes their tags along.
  const tagMemo = new RowMemo(db, ['tags', 'users'])
  // Where pages ended: the next one begins there (a user's deletion takes their agents along).
  const ends = new PageEnds(db, ['agents', 'users'])
  const fields = (a: AgentInput) =>
    [a.name, a.type, a.provider, a.model, a.hasMemory ? 1 : 0, a.promptId, a.documentId] as const
  const insertTags = (id: string, tagIds: string[]) => {
    if (tagIds.length) s.insertTags.run(id, JSON.stringify(tagIds))
  }

  const agents = {
    /** Where the users' pages of agents ended (the next page begins there). */
    pageEnds: ends,
    /**
     * Creates the agent and its tag links in one transaction; returns the agent's response JSON.
     * `tags` is what `tags()` found for `input.tagIds`, in the same order.
     */
    createJson(user: UserStrict, input: AgentInput, tags: readonly string[]): string {
      const id = newId()
      const now = nowStamp()
      transaction(db, () => {
        s.insert.run(id, user.id, ...fields(input), now, now)
        insertTags(id, input.tagIds)
      })
      // An embedded document is read back with the agent; without one, everything is known here.
      if (input.documentId !== null) return agents.getJson(user, id) as string
      return newAgentJson(id, user, input, tags, now)
    },
    /** Which of `ids` are the caller's own tags, each with its response JSON. */
    tags(user: UserStrict, ids: readonly string[]): Map<string, string> {
      const mine = new Map<string, string>()
      for (const id of ids) {
        if (mine.has(id)) continue
        const key = `${user.id}\n${id}`
        let json = tagMemo.get(key)
        if (json === undefined) {
          const r = s.tag.get(id, user.id) as Row | undefined
          if (!r) continue
          json = str(r.j)
          tagMemo.set(key, json)
        }
        mine.set(id, json)
      }
      return mine
    },
    update(user: UserStrict, id: string, input: AgentInput, replaceTags: boolean): AgentStrict | undefined {
      const changed = transaction(db, () => {
        const n = s.update.run(...fields(input), nowStamp(), id, user.id).changes
        if (n && replaceTags) {
          s.clearTags.run(id)
          insertTags(id, input.tagIds)
        }
        return n
      })
      return changed ? agents.get(user, id) : undefined
    },
    /** The agent as response JSON text (what GET /agents/{id} sends), or undefined. */
    getJson(user: UserStrict, id: string): string | undefined {
      const r = s.get.get({ id, uid: user.id, user: userJson(user) }) as Row | undefined
      return r ? str(r.j) : undefined
    },
    get(user: UserStrict, id: string): AgentStrict | undefined {
      const j = agents.getJson(user, id)
      return j === undefined ? undefined : (JSON.parse(j) as AgentStrict)
    },
    /**
     * The page of agents, newest first: one JSON array text, or (a page longer than SENT_WHOLE or
     * the whole list, where the service reads in WAL mode) its parts, read as they are sent
     * (reads.ts).
     */
    list(user: UserStrict, p: Page): RawJson | JsonArrayParts {
      const { at, start } = ends.begin(user.id, p.skip)
      const after = 'after' in start
      const params = { uid: user.id, user: userJson(user), take: p.take, ...start }
      if (p.take >= 0 && p.take <= LONG_PAGE) {
        const r = (after ? s.listAfter() : s.list).get(params) as Row | undefined
        if (!r) return new RawJson('[]')
        ends.read(user.id, p.skip, p.take, Number(r.n), r.last, at)
        return new RawJson(str(r.j))
      }
      const track = (rows: Iterable<unknown[]>) => ends.track(rows, user.id, p.skip, p.take, at, 1)
      if (sentAsRead(reads, p.take))
        return new JsonArrayParts(
          textParts(track(reads.rows(after ? AGENTS_ROWS_AFTER_SQL : AGENTS_ROWS_SQL, params)), (r) =>
            str(r[0])
          )
        )
      const texts: string[] = []
      const rows = (after ? s.rowsAfter() : s.rows).iterate(params) as Iterable<unknown[]>
      for (const r of track(rows)) texts.push(str(r[0]))
      return new RawJson(`[${texts.join(',')}]`)
    },
    remove(user: UserStrict, id: string): boolean {
      return s.remove.run(id, user.id).changes > 0
    }
  }
  return agents
}

/** A string as SQLite gives it back: UTF-8 has no lone surrogates, so each one becomes U+FFFD. */
const stored = (v: string): string => JSON.stringify(v.replace(/\p{Cs}/gu, '\uFFFD'))

/**
 * What AGENT_JSON reads for a new agent without a document, written here instead of read back
 * (`tags` are the tags' own JSON, in order). Tests hold the two to the same text.
 */
function newAgentJson(
  id: string,
  user: UserStrict,
  a: AgentInput,
  tags: readonly string[],
  now: string
): string {
  return (
    `{"id":"${id}","userId":${stored(user.id)},"user":${userJson(user)},"document":{},"documentId":null,` +
    `"promptId":${a.promptId === null ? 'null' : stored(a.promptId)},"name":${stored(a.name)},` +
    `"type":${stored(a.type)},"tags":[${tags.join(',')}],` +
    `"llm":{"provider":${stored(a.provider)},"model":${stored(a.model)}},"hasMemory":${a.hasMemory},` +
    `"AgentMemory":null,"createdAt":"${now}","updatedAt":"${now}"}`
  )
}

/** Which of some ids are the caller's own prompts or documents (what an agent may reference). */
export interface AgentRefs {
  prompt(user: UserStrict, ids: readonly string[]): Set<string>
  document(user: UserStrict, ids: readonly string[]): Set<string>
}

type RefInput = { promptId?: string | null; documentId?: string | null; tags?: (string | { id: string })[] }

/**
 * Checks that referenced prompt, document and tags are the caller's; returns the tag ids in order
 * (each once) and their JSON.
 */
function checkRefs(
  agents: AgentStorage,
  refs: AgentRefs,
  user: UserStrict,
  b: RefInput
): { tagIds: string[]; tags: string[] } {
  const issues: FieldIssue[] = []
  if (b.promptId != null && !refs.prompt(user, [b.promptId]).has(b.promptId)) {
    issues.push({ field: 'promptId', message: 'No such prompt' })
  }
  if (b.documentId != null && !refs.document(user, [b.documentId]).has(b.documentId)) {
    issues.push({ field: 'documentId', message: 'No such document' })
  }
  const asked = (b.tags ?? []).map((ref) => (typeof ref === 'string' ? ref : ref.id))
  const mine = agents.tags(user, asked)
  const tagIds: string[] = []
  const tags: string[] = []
  asked.forEach((tagId, i) => {
    const json = mine.get(tagId)
    if (json === undefined) issues.push({ field: `tags.${i}`, message: `No such tag: ${tagId}` })
    else if (!tagIds.includes(tagId)) {
      tagIds.push(tagId)
      tags.push(json)
    }
  })
  if (issues.length) throw invalid(issues)
  return { tagIds, tags }
}

export function agentRoutes(agents: AgentStorage, refs: AgentRefs): RouteTable {
  return crud({
    path: '/agents',
    what: 'Agent',
    list: (ctx) => agents.list(ctx.user, page(ctx.query)),
    get(ctx, agentId) {
      const json = agents.getJson(ctx.user, agentId)
      return json === undefined ? undefined : new RawJson(json)
    },
    remove: (ctx, agentId) => agents.remove(ctx.user, agentId),
    create(ctx) {
      const b = validate(AgentCreate, ctx.body)
      const { tagIds, tags } = checkRefs(agents, refs, ctx.user, b)
      const json = agents.createJson(
        ctx.user,
        {
          name: b.name,
          type: b.type,
          provider: b.llm.provider,
          model: b.llm.model,
          hasMemory: b.hasMemory,
          promptId: b.promptId ?? null,
          documentId: b.documentId ?? null,
          tagIds
        },
        tags
      )
      return new RawJson(json)
    },
    update(ctx, agentId) {
      const b = validate(AgentUpdate, ctx.body)
      const current = agents.get(ctx.user, agentId)
      if (!current) return undefined
      const { tagIds } = checkRefs(agents, refs, ctx.user, b)
      const next: AgentInput = {
        name: b.name ?? current.name,
        type: b.type ?? current.type,
        provider: b.llm?.provider ?? current.llm.provider,
        model: b.llm?.model ?? current.llm.model,
        hasMemory: b.hasMemory ?? current.hasMemory,
        promptId: b.promptId === undefined ? current.promptId : b.promptId,
        documentId: b.documentId === undefined ? current.documentId : b.documentId,
        tagIds
      }
      return agents.update(ctx.user, current.id, next, b.tags !== undefined)
    }
  })
}
