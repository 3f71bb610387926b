/**
 * The rows kept in memory (rowMemo.ts) and the per-table write counts they rest on (db.ts): a
 * tag named by a new agent is read once, and the answer never shows a tag as it no longer is —
 * renamed or deleted through the API, changed by another connection to the file, or changed in
 * a transaction that was then rolled back.
 */
import { join } from 'node:path'
import Database from 'libsql'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AgentStrict, ErrorEnvelope, TagStrict } from '../shared'
import { openDatabase, writtenTable } from './db'
import { RowMemo } from './rowMemo'
import { WriteQueue } from './writes'
import { signUp, startTestServer, type TestServer } from '../../test/support/serviceKit'
import { tempDir } from '../../test/support/tempDirs'

describe('writes by table', () => {
  it('names the table a statement writes, and none for the rest', () => {
    expect(writtenTable('INSERT INTO agents (id) VALUES (?)')).toBe('agents')
    expect(writtenTable('  insert or ignore into agent_tags SELECT 1')).toBe('agent_tags')
    expect(writtenTable('REPLACE INTO "Tags" VALUES (1)')).toBe('tags')
    expect(writtenTable('UPDATE OR ROLLBACK tags SET name = ?')).toBe('tags')
    expect(writtenTable('DELETE FROM [users] WHERE id = ?')).toBe('users')
    expect(writtenTable('SELECT * FROM tags')).toBeNull()
    expect(writtenTable('WITH x AS (SELECT 1) DELETE FROM tags')).toBeNull()
    expect(writtenTable('SAVEPOINT s')).toBeNull()
  })

  it("counts each table's writes; a write of no known table (exec, ROLLBACK, others) counts for all, so does any that failed; a commit for none", () => {
    const dir = join(tempDir('agent-desk-memo-'), 'w.db')
    const db = openDatabase(dir, ["CREATE TABLE a (v TEXT CHECK (v <> 'bad')); CREATE TABLE b (v TEXT);"])
    try {
      const [a0, b0] = [db.writesTo('a'), db.writesTo('b')]
      db.prepare('INSERT INTO a (v) VALUES (?)').run('x')
      db.prepare('SELECT v FROM b').all()
      expect([db.writesTo('a') - a0, db.writesTo('b') - b0]).toEqual([1, 0])
      db.prepare('UPDATE b SET v = ?').run('y') // no row changed: still counted
      expect([db.writesTo('a') - a0, db.writesTo('b') - b0]).toEqual([1, 1])
      db.exec('BEGIN')
      db.exec('COMMIT')
      db.prepare('SAVEPOINT s').run()
      db.prepare('RELEASE s').run()
      expect([db.writesTo('a') - a0, db.writesTo('b') - b0]).toEqual([1, 1]) // no row changed
      db.exec('BEGIN')
      db.exec('ROLLBACK')
      db.prepare('WITH x AS (SELECT 1) DELETE FROM a').run()
      expect([db.writesTo('a') - a0, db.writesTo('b') - b0]).toEqual([3, 3])
      // A statement that fails might have taken a transaction with it: it counts for all.
      expect(() => db.prepare('INSERT INTO a (v) VALUES (?)').run('bad')).toThrow(/CHECK/)
      expect([db.writesTo('a') - a0, db.writesTo('b') - b0]).toEqual([5, 4])
    } finally {
      db.close()
    }
  })
})

describe('the memo of rows', () => {
  it('forgets what a rolled-back transaction read, and anything another connection commits', async () => {
    const file = join(tempDir('agent-desk-memo-'), 'memo.db')
    const db = openDatabase(file, ['CREATE TABLE tags (id TEXT PRIMARY KEY, name TEXT NOT NULL)'])
    const other = new Database(file)
    try {
      db.prepare("INSERT INTO tags (id, name) VALUES ('t', 'first')").run()
      const memo = new RowMemo(db, ['tags'])
      const select = db.prepare('SELECT name FROM tags WHERE id = ?')
      let reads = 0
      const name = () => {
        const kept = memo.get('t')
        if (kept !== undefined) return kept
        reads++
        const read = String((select.get('t') as { name: string }).name)
        memo.set('t', read)
        return read
      }
      const queue = new WriteQueue(db)
      const seen = await Promise.allSettled([
        queue.run(name),
        queue.run(() => {
          db.prepare("UPDATE tags SET name = 'renamed' WHERE id = 't'").run()
          const inside = name()
          throw new Error(`failed after reading "${inside}"`)
        }),
        queue.run(name)
      ])
      expect(seen.map((r) => (r.status === 'fulfilled' ? r.value : String(r.reason)))).toEqual([
        'first',
        'Error: failed after reading "renamed"',
        'first'
      ])
      expect(name()).toBe('first')
      const before = reads
      expect(name()).toBe('first')
      expect(reads).toBe(before) // kept while nothing changed

      other.prepare("UPDATE tags SET name = 'outside' WHERE id = 't'").run()
      await new Promise((r) => setImmediate(r)) // another turn: the file's version is read afresh
      expect(name()).toBe('outside')
    } finally {
      other.close()
      db.close()
    }
  })
})

describe('tags named by new agents', () => {
  let srv: TestServer
  beforeEach(async () => {
    srv = await startTestServer()
  })
  afterEach(async () => {
    await srv.stop()
  })

  const agent = (tags: string[]) => ({
    name: 'Tagged',
    type: 'REACT',
    llm: { provider: 'p', model: 'm' },
    tags
  })

  it('are answered as they are now: renamed, recoloured, deleted, changed from outside, or not yours', async () => {
    const u = await signUp(srv.base, 'Tags')
    const other = await signUp(srv.base, 'Other')
    const tag = TagStrict.parse(
      (await u.api.post('/tags', { name: 'red', color: '#FF0000', userId: u.userId })).data
    )
    const named = async () => {
      const r = await u.api.post('/agents', agent([tag.id]))
      expect(r.status).toBe(200)
      return AgentStrict.parse(r.data).tags.map((t) => `${t.name} ${t.color}`)
    }
    expect(await named()).toEqual(['red #FF0000'])
    expect(await named()).toEqual(['red #FF0000'])

    await u.api.patch(`/tags/${tag.id}`, { name: 'green', color: '#00FF00' })
    expect(await named()).toEqual(['green #00FF00'])

    const db = new Database(join(srv.dataDir, 'service.db'))
    try {
      db.prepare('UPDATE tags SET name = ? WHERE id = ?').run('outside', tag.id)
    } finally {
      db.close()
    }
    expect(await named()).toEqual(['outside #00FF00'])

    const foreign = await other.api.post('/agents', agent([tag.id]))
    expect(foreign.status).toBe(400)
    expect(ErrorEnvelope.parse(foreign.json).error.details).toEqual([
      { field: 'tags.0', message: `No such tag: ${tag.id}` }
    ])

    expect((await u.api.del(`/tags/${tag.id}`)).status).toBe(200)
    const gone = await u.api.post('/agents', agent([tag.id]))
    expect(gone.status).toBe(400)
    // The agents named it before still list without it.
    const listed = (await u.api.get('/agents')).data as { tags: unknown[] }[]
    expect(listed.map((a) => a.tags.length)).toEqual([0, 0, 0, 0])
  })
})
