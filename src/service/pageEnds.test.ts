/**
 * Pages that begin where the page before them ended (pageEnds.ts): the same pages as `OFFSET`
 * finds, for agents (pages SQLite joins, long pages read as rows, pages sent as they are read) and
 * for a table of user-owned rows (sql.ts), rows of one `created_at` across page ends included; and
 * found with `OFFSET` again once the list changed.
 */
import Database from 'libsql'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { UserStrict } from '../shared'
import { openDatabase, type Db } from './db'
import { okText } from './http'
import { PageEnds } from './pageEnds'
import { openLongReads, SENT_WHOLE } from './reads'
import { MIGRATIONS, openStorage, type Storage } from './resources/index'
import { LONG_PAGE } from './resources/agents'
import { publicUser } from './resources/users'
import type { Page } from './sql'

let dir: string
let file: string
let db: Db
let storage: Storage
let user: UserStrict

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-desk-page-ends-'))
  file = join(dir, 'service.db')
  db = openDatabase(file, MIGRATIONS)
  storage = openStorage(db, openLongReads(db, file))
  const row = storage.users.create('pager@example.com', 'Pager', 'not a hash')
  if (!row) throw new Error('no user')
  user = publicUser(row)
})
afterEach(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

/**
 * `count` rows of `table` for the user, written by a connection of their own; every seven share
 * one `created_at` (so a page may end inside a run of equal times).
 */
function seed(table: 'agents' | 'tools', count: number): void {
  const own =
    table === 'agents'
      ? {
          columns: 'name, type, llm_provider, llm_model, has_memory',
          values: "'Agent ' || x, 'REACT', 'p', 'm', 0"
        }
      : { columns: 'name, type, description, metadata', values: "'Tool ' || x, 'SEARCH', '', '{}'" }
  const other = new Database(file)
  try {
    other.exec('PRAGMA busy_timeout = 5000')
    other
      .prepare(
        `WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < :count)
         INSERT INTO ${table} (id, user_id, created_at, updated_at, ${own.columns})
         SELECT printf('00000000-0000-7000-8000-%012d', x), :user, t, t, ${own.values}
         FROM (SELECT x, printf('2026-11-30T%02d:%02d:%02d.000000+00:00', x / 7 / 3600, x / 7 / 60 % 60, x / 7 % 60) AS t FROM n)`
      )
      .run({ count, user: user.id })
  } finally {
    other.close()
  }
}

/** A new agent of the user's, through the service's connection; its id. */
function agentOf(name: string): string {
  const input = {
    name,
    type: 'REACT',
    provider: 'p',
    model: 'm',
    hasMemory: false,
    promptId: null,
    documentId: null,
    tagIds: []
  }
  return (JSON.parse(storage.agents.createJson(user, input, [])) as { id: string }).id
}

type Lister = { list(user: UserStrict, page: Page): unknown; pageEnds: PageEnds }

/** The ids of a page, as the service sends it. */
function ids(table: Lister, page: Page): string[] {
  const text = okText(table.list(user, page))
  return (JSON.parse(text) as { data: { id: string }[] }).data.map((item) => item.id)
}

/** Every page of `take` in turn, until one is short. */
function walk(table: Lister, take: number): string[][] {
  const pages: string[][] = []
  for (let skip = 0; ; skip += take) {
    const page = ids(table, { skip, take })
    pages.push(page)
    if (page.length < take) return pages
  }
}

describe('pages that begin where the page before them ended', () => {
  it.each([
    ['agents, pages SQLite joins', 'agents', 7],
    ['agents, long pages read as rows', 'agents', LONG_PAGE + 1],
    ['agents, pages sent as they are read', 'agents', SENT_WHOLE + 1],
    ['tools, pages read whole', 'tools', 7],
    ['tools, pages sent as they are read', 'tools', SENT_WHOLE + 1]
  ] as const)('%s: the pages OFFSET finds, each after the first found from its end', (_, table, take) => {
    const count = take < 100 ? 75 : 2 * take + 3
    seed(table, count)
    const lister = storage[table]
    const whole = ids(lister, { skip: 0, take: -1 })
    expect(whole).toHaveLength(count)
    expect(new Set(whole).size).toBe(count)
    const followed = lister.pageEnds.followed
    const pages = walk(lister, take)
    expect(pages.flat()).toEqual(whole)
    pages.forEach((page, i) => expect(page).toEqual(whole.slice(i * take, (i + 1) * take)))
    // Every page but the first began where the one before it ended.
    expect(lister.pageEnds.followed - followed).toBe(pages.length - 1)
    // The rest of the list from a page's end, too.
    expect(ids(lister, { skip: take, take: -1 })).toEqual(whole.slice(take))
    expect(lister.pageEnds.followed - followed).toBe(pages.length)
  })

  it('a change between two pages: the next one is found with OFFSET, as the list is now', async () => {
    seed('agents', 30)
    const agents = storage.agents
    const first = ids(agents, { skip: 0, take: 10 })
    const followed = agents.pageEnds.followed
    // A new agent, through the service's connection: first in the list now.
    agentOf('Newest')
    const now = ids(agents, { skip: 0, take: -1 })
    const second = ids(agents, { skip: 10, take: 10 })
    // OFFSET's page of the list as it is now: the first page's last agent again.
    expect(second).toEqual(now.slice(10, 20))
    expect(second[0]).toBe(first[9])
    expect(agents.pageEnds.followed).toBe(followed)

    // The page after it begins where it ended (the list has not changed since).
    const third = ids(agents, { skip: 20, take: 5 })
    expect(third).toEqual(now.slice(20, 25))
    expect(agents.pageEnds.followed).toBe(followed + 1)
    // Another connection's commit (an agent deleted) between two pages: OFFSET again.
    const other = new Database(file)
    other.prepare('DELETE FROM agents WHERE id = ?').run(now[0])
    other.close()
    // (The next request comes in a turn of its own: another connection's commits are looked for
    // once a turn, DbChanges.foreignVersion.)
    await new Promise((resolve) => setImmediate(resolve))
    const fourth = ids(agents, { skip: 25, take: 5 })
    expect(fourth).toEqual(now.slice(1).slice(25, 30))
    expect(agents.pageEnds.followed).toBe(followed + 1)
  })

  it('a tool created between two pages of tools: the next page is found with OFFSET', () => {
    seed('tools', 12)
    const tools = storage.tools
    const first = ids(tools, { skip: 0, take: 5 })
    const followed = tools.pageEnds.followed
    tools.create(user, { name: 'Newest', type: 'SEARCH', description: '', metadata: {} })
    const now = ids(tools, { skip: 0, take: -1 })
    const second = ids(tools, { skip: 5, take: 5 })
    expect(second).toEqual(now.slice(5, 10))
    expect(second[0]).toBe(first[4])
    expect(tools.pageEnds.followed).toBe(followed)
  })

  it("links, the user's and one agent's: each list's pages after the first found from their ends; a document deleted between two pages: OFFSET", () => {
    const [a, b] = [agentOf('A'), agentOf('B')]
    const links = storage.agentDocuments.links
    const documents: string[] = []
    for (let i = 0; i < 40; i++) {
      const doc = storage.documents.create(user, {
        name: `Document ${i}`,
        type: 'TXT',
        url: 'https://example.com/d',
        from_page: null,
        to_page: null,
        metadata: {},
        authorization: null,
        splitter: null
      })
      documents.push(doc.id)
      links.create(user, i % 3 === 0 ? b : a, doc.id)
    }
    const lister = (agent: string | null): Lister => ({
      list: (u, page) => links.list(u, agent, false, page),
      pageEnds: links.pageEnds
    })
    for (const agent of [null, a, b]) {
      const whole = ids(lister(agent), { skip: 0, take: -1 })
      expect(whole).toHaveLength(agent === null ? 40 : agent === a ? 26 : 14)
      const followed = links.pageEnds.followed
      const pages = walk(lister(agent), 4)
      expect(pages.flat()).toEqual(whole)
      expect(links.pageEnds.followed - followed).toBe(pages.length - 1)
    }
    // The newest document of agent A's goes (its link with it) after A's first page was read.
    const before = ids(lister(a), { skip: 0, take: -1 })
    ids(lister(a), { skip: 0, take: 5 })
    const followed = links.pageEnds.followed
    expect(storage.documents.remove(user, documents[38] as string)).toBe(true)
    const second = ids(lister(a), { skip: 5, take: 5 })
    expect(second).toEqual(before.slice(6, 11))
    expect(links.pageEnds.followed).toBe(followed)
  })

  it('a page sent as it is read and left part-way notes no end', () => {
    seed('tools', 2 * SENT_WHOLE + 10)
    const tools = storage.tools
    const data = tools.list(user, { skip: 0, take: SENT_WHOLE + 1 })
    if (!('parts' in data)) throw new Error('expected a page sent as it is read')
    expect(data.parts.next().done).toBe(false)
    data.parts.return()
    const followed = tools.pageEnds.followed
    const whole = ids(tools, { skip: 0, take: -1 })
    expect(ids(tools, { skip: SENT_WHOLE + 1, take: 5 })).toEqual(whole.slice(SENT_WHOLE + 1, SENT_WHOLE + 6))
    expect(tools.pageEnds.followed).toBe(followed)
  })

  it('keeps the ends noted last, as many as it was told', () => {
    const ends = new PageEnds(db, ['agents', 'users'], 2)
    const at = ends.stamp()
    ends.ended('a', 10, 1, at)
    ends.ended('b', 10, 2, at)
    ends.ended('c', 10, 3, at)
    expect(ends.before('a', 10)).toBeNull()
    expect(ends.before('b', 10)).toBe(2)
    expect(ends.before('c', 10)).toBe(3)
    expect(ends.before('c', 20)).toBeNull()
    // An end read as the list was before a change is not kept.
    db.prepare('DELETE FROM agents WHERE user_id = ?').run('nobody')
    ends.ended('d', 10, 4, at)
    expect(ends.before('d', 10)).toBeNull()
    // Nor one noted before it: the list changed since.
    expect(ends.before('b', 10)).toBeNull()
  })
})
