/**
 * Agents' storage. A new agent's answer is written in JavaScript when it has no document (AGENT_JSON is not read
 * back): it must be the very text GET /agents/{id} answers, whatever the names hold.
 */
import fc from 'fast-check'
import Database from 'libsql'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AgentStrict, AgentType, TagStrict } from '../../shared'
import { call, client, signUp, startTestServer, type TestServer } from '../../../test/support/serviceKit'
import { hashPassword } from '../auth'
import { openDatabase } from '../db'
import { WHOLE_CHARS } from '../http'
import { SENT_WHOLE } from '../reads'
import {
  AGENTS_PAGE_AFTER_SQL,
  AGENTS_PAGE_SQL,
  AGENTS_ROWS_AFTER_SQL,
  AGENTS_ROWS_SQL,
  LONG_PAGE
} from './agents'
import { MIGRATIONS, openStorage } from './index'
import { publicUser } from './users'

let srv: TestServer
let me: Awaited<ReturnType<typeof signUp>>
beforeAll(async () => {
  srv = await startTestServer()
  me = await signUp(srv.base, 'Zoë "quoted" \\ \u2028 \ud83d\ude00')
})
afterAll(async () => {
  await srv.stop()
})

// Text as clients may send it: any code point, control characters, lone surrogates, quotes.
const text = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12, unit: 'binary' }),
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.constantFrom('\ud800', 'a\udc00b', '"\\/\b\f\n\r\t', '\u0000\u001f\u007f', '\u2028\u2029', '😀')
)

describe('agent create answer', () => {
  it('is the text a GET of the new agent answers (any names, tags, prompt, memory flag)', async () => {
    const tags: TagStrict[] = []
    for (const [i, name] of ['plain', '\ud800 "odd" \n', 'émoji 😀'].entries()) {
      const r = await me.api.post('/tags', {
        name,
        color: ['#abc', '#0E8A16', '#ffffff'][i],
        userId: me.userId
      })
      tags.push(TagStrict.parse(r.data))
    }
    const prompt = await me.api.post('/prompts', { name: 'P', template: 'Hello {name}' })
    expect(prompt.status).toBe(200)
    const promptId = (prompt.data as { id: string }).id
    let compared = 0
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          name: text,
          type: fc.constantFrom(...AgentType.options),
          provider: text,
          model: text,
          hasMemory: fc.boolean(),
          prompt: fc.boolean(),
          tags: fc.array(fc.constantFrom(...tags.map((t) => t.id)), { maxLength: 4 })
        }),
        async (a) => {
          const created = await me.api.post('/agents', {
            name: a.name,
            type: a.type,
            llm: { provider: a.provider, model: a.model },
            hasMemory: a.hasMemory,
            ...(a.prompt ? { promptId } : {}),
            tags: a.tags
          })
          if (created.status !== 200) return // refused as the contract says (e.g. a blank name)
          const agent = AgentStrict.parse(created.data)
          const got = await me.api.get(`/agents/${agent.id}`)
          expect(created.text).toBe(got.text)
          compared += 1
        }
      ),
      { numRuns: 150 }
    )
    expect(compared).toBeGreaterThan(75)
  })

  it('reads the agent back when it embeds a document', async () => {
    const doc = await me.api.post('/documents', { name: 'D', type: 'PDF', url: 'https://example.com/d.pdf' })
    expect(doc.status).toBe(200)
    const documentId = (doc.data as { id: string }).id
    const created = await me.api.post('/agents', {
      name: 'With document',
      type: 'REACT',
      llm: { provider: 'p', model: 'm' },
      documentId
    })
    expect(AgentStrict.parse(created.data).document).toMatchObject({ id: documentId, name: 'D' })
    expect(created.text).toBe((await me.api.get(`/agents/${(created.data as { id: string }).id}`)).text)
  })
})

describe('schema version 3 (partial reference indexes, tag links without rowid)', () => {
  it('upgrades a version 2 file: every agent reads as before, and links, cascades and set-null still work', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-desk-v2-'))
    const file = join(dataDir, 'service.db')
    try {
      // A file as the previous version left it, written by this code's storage.
      const old = openDatabase(file, MIGRATIONS.slice(0, 2))
      const s = openStorage(old)
      const password = 'correct horse battery'
      const row = s.users.create('old@example.com', 'Old', await hashPassword(password, 16))
      if (!row) throw new Error('no user')
      const user = publicUser(row)
      const [t1, t2, t3] = ['one', 'two', 'three'].map((name) =>
        s.tags.create(user, { name, color: '#AABBCC' })
      )
      const prompt = s.prompts.create(user, { name: 'P', template: 'Hi {x}', input_variables: ['x'] })
      const doc = s.documents.create(user, {
        name: 'D',
        type: 'PDF',
        url: 'https://example.com/d.pdf',
        from_page: null,
        to_page: null,
        metadata: {},
        authorization: null,
        splitter: null
      })
      const input = (name: string, tagIds: string[], promptId: string | null, documentId: string | null) => ({
        name,
        type: 'REACT',
        provider: 'p',
        model: 'm',
        hasMemory: false,
        promptId,
        documentId,
        tagIds
      })
      const ids = [
        input('tags in order', [t1!.id, t2!.id, t3!.id], null, null),
        input('tags reversed', [t3!.id, t1!.id], prompt.id, null),
        input('with document', [t2!.id], prompt.id, doc.id),
        input('bare', [], null, null)
      ].map((a) => (JSON.parse(s.agents.createJson(user, a, [])) as { id: string }).id)
      const before = ids.map((id) => s.agents.getJson(user, id))
      expect(before.every((j) => j !== undefined)).toBe(true)
      old.close()

      const srv = await startTestServer({ dataDir })
      try {
        const signIn = await call(srv.base, 'POST', '/auth/sign-in', {
          body: { email: 'old@example.com', password }
        })
        const api = client(srv.base, (signIn.data as { token: string }).token)
        for (const [i, id] of ids.entries()) {
          const got = await api.get(`/agents/${id}`)
          expect(JSON.parse(got.text).data).toEqual(JSON.parse(before[i] as string))
        }
        const tagsOf = async (id: string) =>
          AgentStrict.parse((await api.get(`/agents/${id}`)).data).tags.map((t) => t.name)
        expect(await tagsOf(ids[0]!)).toEqual(['one', 'two', 'three'])
        expect(await tagsOf(ids[1]!)).toEqual(['three', 'one'])
        // Cascades and set-null through the new tables and indexes.
        expect((await api.del(`/tags/${t1!.id}`)).status).toBe(200)
        expect(await tagsOf(ids[0]!)).toEqual(['two', 'three'])
        expect((await api.del(`/prompts/${prompt.id}`)).status).toBe(200)
        expect((await api.del(`/documents/${doc.id}`)).status).toBe(200)
        const third = AgentStrict.parse((await api.get(`/agents/${ids[2]}`)).data)
        expect([third.promptId, third.documentId, third.document]).toEqual([null, null, {}])
        expect((await api.del(`/agents/${ids[1]}`)).status).toBe(200)
        const retag = await api.patch(`/agents/${ids[3]}`, { tags: [t2!.id, t3!.id] })
        expect(AgentStrict.parse(retag.data).tags.map((t) => t.name)).toEqual(['two', 'three'])
      } finally {
        await srv.service.close()
      }
      const db = new Database(file)
      const sql = (name: string) =>
        (db.prepare('SELECT sql FROM sqlite_schema WHERE name = ?').get(name) as { sql: string }).sql
      expect(sql('agent_tags')).toMatch(/WITHOUT ROWID$/)
      expect(sql('agents_prompt')).toMatch(/WHERE prompt_id IS NOT NULL$/)
      expect(sql('agents_document')).toMatch(/WHERE document_id IS NOT NULL$/)
      expect(db.prepare('SELECT count(*) AS n FROM agent_tags').get()).toMatchObject({ n: 5 })
      expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([])
      db.close()
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})

describe('agents list', () => {
  it('answers the whole list, a long page and pages alike: the same texts, newest first', async () => {
    const dataText = (text: string) => {
      const m = /^\{"success":true,"data":(\[.*\])\}$/s.exec(text)
      if (!m) throw new Error(`not a list answer: ${text.slice(0, 80)}`)
      return m[1] as string
    }
    const whole = await me.api.get('/agents')
    const agents = AgentStrict.array().parse(whole.data)
    // The agents of the answer test above (odd names, tags, a prompt) and one with a document.
    expect(agents.length).toBeGreaterThan(75)
    expect(agents.some((a) => a.document && 'id' in a.document)).toBe(true)
    const created = agents.map((a) => a.createdAt)
    expect(created).toEqual([...created].sort().reverse())
    // Pages (SQLite joins each page's text) read in turn give the same text as the whole list
    // (rows joined by the service) and as a page longer than LONG_PAGE.
    const pages: string[] = []
    for (let skip = 0; ; skip += 7) {
      const page = dataText((await me.api.get(`/agents?skip=${skip}&take=7`)).text)
      if (page === '[]') break
      pages.push(page.slice(1, -1))
    }
    expect(`[${pages.join(',')}]`).toBe(dataText(whole.text))
    const long = await me.api.get(`/agents?take=${LONG_PAGE + 1}`)
    expect(dataText(long.text)).toBe(dataText(whole.text))
    const tail = await me.api.get(`/agents?skip=5&take=${LONG_PAGE + 1}`)
    expect(tail.data).toEqual((whole.data as unknown[]).slice(5))
  })

  it('finds a page in the index alone: the rows skip passes over are not read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-desk-agents-plan-'))
    const db = openDatabase(join(dir, 'service.db'), MIGRATIONS)
    try {
      const plan = (
        db
          .prepare(`EXPLAIN QUERY PLAN ${AGENTS_PAGE_SQL}`)
          .all({ uid: 'u', user: '{}', take: 2, skip: 1 }) as {
          detail: string
        }[]
      ).map((r) => r.detail)
      // The page: a covering index search; then each of its rows by its integer key.
      expect(plan).toContainEqual(
        expect.stringMatching(/^SEARCH agents USING COVERING INDEX agents_user \(user_id=\?\)$/)
      )
      expect(plan).toContainEqual(expect.stringMatching(/^SEARCH a USING INTEGER PRIMARY KEY \(rowid=\?\)$/))
      // A long page or the whole list: rows in the index's order as they are made, never sorted
      // after all are made (the first would come only then); `skip` walks the index alone.
      const rows = (
        db
          .prepare(`EXPLAIN QUERY PLAN ${AGENTS_ROWS_SQL}`)
          .all({ uid: 'u', user: '{}', take: -1, skip: 0 }) as {
          detail: string
        }[]
      ).map((r) => r.detail)
      expect(rows).toContainEqual(expect.stringMatching(/^SEARCH a USING INDEX agents_user \(user_id=\? AND/))
      expect(rows).toContainEqual(
        expect.stringMatching(/^SEARCH agents USING COVERING INDEX agents_user \(user_id=\?\)$/)
      )
      expect(rows.filter((d) => /TEMP B-TREE FOR ORDER BY/.test(d))).toEqual([])
      // A page that begins after the row the page before it ended with (pageEnds.ts): the index
      // searched from that row on (nothing passed over), then that row by its integer key.
      const after = { uid: 'u', user: '{}', take: 2, after: 1 }
      for (const [sql, search] of [
        [
          AGENTS_PAGE_AFTER_SQL,
          /^SEARCH agents USING COVERING INDEX agents_user \(user_id=\? AND created_at<\?\)$/
        ],
        [AGENTS_ROWS_AFTER_SQL, /^SEARCH a USING INDEX agents_user \(user_id=\? AND created_at<\?\)$/]
      ] as const) {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(after) as { detail: string }[]).map(
          (r) => r.detail
        )
        expect(plan).toContainEqual(expect.stringMatching(search))
        expect(plan).toContainEqual(
          expect.stringMatching(/^SEARCH agents USING INTEGER PRIMARY KEY \(rowid=\?\)$/)
        )
        expect(plan.filter((d) => /TEMP B-TREE FOR ORDER BY/.test(d))).toEqual([])
      }
    } finally {
      db.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('sends a long list as its rows are read, in chunks: the same list as its pages', async () => {
    const other = await signUp(srv.base, 'Many')
    const count = manyAgents(srv.dataDir, other.userId)
    const whole = await other.api.get('/agents')
    expect(whole.headers.get('transfer-encoding')).toBe('chunked')
    expect(whole.headers.get('content-length')).toBeNull()
    expect(whole.text.length).toBeGreaterThan(WHOLE_CHARS)
    const pages: unknown[] = []
    for (let skip = 0; ; skip += 1000) {
      const page = (await other.api.get(`/agents?skip=${skip}&take=1000`)).data as unknown[]
      if (!page.length) break
      pages.push(...page)
    }
    expect(whole.data).toEqual(pages)
    expect(pages).toHaveLength(count)
    // Long pages from its middle (made whole, and sent as read), and past the end.
    for (const take of [LONG_PAGE + 1, SENT_WHOLE + 1]) {
      expect((await other.api.get(`/agents?skip=${count - 7}&take=${take}`)).data).toEqual(
        pages.slice(count - 7)
      )
      expect((await other.api.get(`/agents?skip=${count}&take=${take}`)).data).toEqual([])
    }
  })
})

/**
 * Agents of `userId` enough for a list sent in parts (past WHOLE_CHARS, at ~700 bytes an agent),
 * written into the service's file by a connection of their own (the service reads them as another
 * connection's commit); how many.
 */
function manyAgents(dataDir: string, userId: string): number {
  const count = Math.ceil(WHOLE_CHARS / 500)
  const db = new Database(join(dataDir, 'service.db'))
  try {
    db.exec('PRAGMA busy_timeout = 5000')
    db.prepare(
      `WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < :count)
       INSERT INTO agents (id, user_id, name, type, llm_provider, llm_model, has_memory, created_at, updated_at)
       SELECT printf('00000000-0000-7000-8000-%012d', x), :user, 'Agent ' || x, 'REACT', 'p', 'm', 0, t, t
       FROM (SELECT x, strftime('%Y-%m-%dT%H:%M:%f', 'now') || printf('%03d', x % 1000) || '+00:00' AS t FROM n)`
    ).run({ count, user: userId })
  } finally {
    db.close()
  }
  return count
}
