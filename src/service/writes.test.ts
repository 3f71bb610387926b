/**
 * Group commit (writes.ts), the item-answer memory (responses.ts) and the "not revoked" memory
 * (revocation.ts): changes of one turn share a transaction yet fail alone, and nothing kept in
 * memory outlives a change, whoever made it (this service, or another connection to the file).
 */
import { join } from 'node:path'
import Database from 'libsql'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AgentStrict, ErrorEnvelope } from '../shared'
import { openDatabase } from './db'
import { failureOf } from './http'
import { WriteQueue } from './writes'
import { startService } from './index'
import { call, signUp, startTestServer, type TestServer } from '../../test/support/serviceKit'

const agentBody = (name: string) => ({ name, type: 'REACT', llm: { provider: 'p', model: 'm' } })

let srv: TestServer
beforeEach(async () => {
  srv = await startTestServer()
})
afterEach(async () => {
  await srv.stop()
})

describe('group commit', () => {
  it('commits the changes of one turn together, answers each after the commit, and rolls back only the one that fails', async () => {
    const file = join(srv.dataDir, 'queue.db')
    const db = openDatabase(file, ['CREATE TABLE t (v TEXT NOT NULL UNIQUE)'])
    const other = new Database(file)
    try {
      const queue = new WriteQueue(db)
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)')
      const seenByOther: number[] = []
      const runs = { first: 0, third: 0 }
      const count = () => Number((other.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n)
      const results = await Promise.allSettled([
        queue.run(() => {
          runs.first++
          return insert.run('a').changes
        }),
        queue.run(() => {
          insert.run('b')
          insert.run('a') // UNIQUE: this request's own 'b' goes with it
        }),
        queue.run(() => {
          runs.third++
          insert.run('c')
          // Still one open transaction: the other connection sees none of this turn's rows.
          seenByOther.push(count())
          expect(queue.pending).toBe(false)
          return 'third'
        })
      ])
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
      expect((results[0] as PromiseFulfilledResult<unknown>).value).toBe(1)
      expect((results[2] as PromiseFulfilledResult<unknown>).value).toBe('third')
      expect(seenByOther).toEqual([0])
      expect(other.prepare('SELECT v FROM t ORDER BY v').all()).toEqual([{ v: 'a' }, { v: 'c' }])
      // The failed one had changed a row: the transaction was rolled back and the one before it
      // ran again in the next; the one after ran once, in that next transaction.
      expect(runs).toEqual({ first: 2, third: 1 })
      await queue.settled()
    } finally {
      other.close()
      db.close()
    }
  })

  it('runs nothing again when the one that fails changed nothing: a refused statement, a check, a no-op', async () => {
    const file = join(srv.dataDir, 'queue.db')
    const db = openDatabase(file, ['CREATE TABLE t (v TEXT NOT NULL UNIQUE)'])
    try {
      await new WriteQueue(db).run(() => db.prepare('INSERT INTO t (v) VALUES (?)').run('taken'))
      const queue = new WriteQueue(db)
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)')
      const rename = db.prepare('UPDATE t SET v = ? WHERE v = ?')
      let runs = 0
      const results = await Promise.allSettled([
        queue.run(() => {
          runs++
          insert.run('a')
        }),
        queue.run(() => insert.run('taken')), // UNIQUE: refused, nothing changed
        queue.run(() => {
          throw new Error('a check before any write')
        }),
        queue.run(() => {
          if (rename.run('y', 'missing').changes === 0) throw new Error('no such row')
        }),
        queue.run(() => insert.run('b'))
      ])
      expect(results.map((r) => r.status)).toEqual([
        'fulfilled',
        'rejected',
        'rejected',
        'rejected',
        'fulfilled'
      ])
      expect(runs).toBe(1)
      expect(db.prepare('SELECT v FROM t ORDER BY v').all()).toEqual([{ v: 'a' }, { v: 'b' }, { v: 'taken' }])
    } finally {
      db.close()
    }
  })

  it('runs the ones before again when SQLite itself rolls the transaction back (the file may grow no more), and says why the one failed', async () => {
    const file = join(srv.dataDir, 'queue.db')
    const db = openDatabase(file, ['CREATE TABLE t (v TEXT NOT NULL)'])
    try {
      const pages = Number((db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count)
      db.exec(`PRAGMA max_page_count = ${pages + 8}`) // a few small rows fit, a large one does not
      const queue = new WriteQueue(db)
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)')
      const runs = { first: 0, third: 0 }
      const results = await Promise.allSettled([
        queue.run(() => {
          runs.first++
          insert.run('a')
        }),
        queue.run(() => insert.run('x'.repeat(1_000_000))), // SQLITE_FULL, and the transaction is gone
        queue.run(() => {
          runs.third++
          insert.run('c')
        })
      ])
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
      const full = (results[1] as PromiseRejectedResult).reason
      expect(full).toMatchObject({ code: 'SQLITE_FULL' })
      // Answered in words a user can act on, not as the generic internal error.
      expect(failureOf(full)).toMatchObject({
        status: 500,
        code: 'internal',
        message: expect.stringMatching(/disk is full/)
      })
      expect(failureOf(new Error('boom')).message).toMatch(/Something went wrong/)
      expect(runs).toEqual({ first: 2, third: 1 })
      expect(db.prepare('SELECT v FROM t ORDER BY v').all()).toEqual([{ v: 'a' }, { v: 'c' }])
    } finally {
      db.close()
    }
  })

  it('answers concurrent POSTs each with its own outcome', async () => {
    const u = await signUp(srv.base, 'Batch')
    const bodies = Array.from({ length: 30 }, (_, i) => (i === 7 ? { name: '' } : agentBody(`A${i}`)))
    const replies = await Promise.all(bodies.map((body) => u.api.post('/agents', body)))
    expect(replies.map((r) => r.status).filter((s) => s !== 200)).toEqual([400])
    expect(ErrorEnvelope.parse(replies[7]?.json).error.code).toBe('validation_failed')
    const names = ((await u.api.get('/agents')).data as { name: string }[]).map((a) => a.name).sort()
    expect(names).toEqual(
      bodies
        .filter((_, i) => i !== 7)
        .map((b) => b.name)
        .sort()
    )
  })
})

describe('answers kept in memory', () => {
  it('an item GET never outlives a change: through the API, or by another connection to the file', async () => {
    const u = await signUp(srv.base, 'Cache')
    const other = await signUp(srv.base, 'Other')
    const agent = AgentStrict.parse((await u.api.post('/agents', agentBody('Before'))).data)
    const read = async () => AgentStrict.parse((await u.api.get(`/agents/${agent.id}`)).data).name
    expect(await read()).toBe('Before')
    expect(await read()).toBe('Before')
    // Per user: the same URL is someone else's "not found".
    expect((await other.api.get(`/agents/${agent.id}`)).status).toBe(404)

    await u.api.patch(`/agents/${agent.id}`, { name: 'Patched' })
    expect(await read()).toBe('Patched')

    const db = new Database(join(srv.dataDir, 'service.db'))
    try {
      db.prepare('UPDATE agents SET name = ? WHERE id = ?').run('Outside', agent.id)
    } finally {
      db.close()
    }
    expect(await read()).toBe('Outside')

    await u.api.del(`/agents/${agent.id}`)
    expect((await u.api.get(`/agents/${agent.id}`)).status).toBe(404)
  })

  it('a sign-out by another process on the same data folder ends the session here too', async () => {
    const u = await signUp(srv.base, 'Revoke')
    expect((await u.api.get('/agents')).status).toBe(200)
    expect((await u.api.get('/agents')).status).toBe(200) // now remembered as not revoked
    const second = await startService({ dataDir: srv.dataDir, port: 0, scryptCost: 16, logger: () => {} })
    try {
      const r = await call(`${second.url}/api/v1`, 'POST', '/auth/sign-out', { token: u.token })
      expect(r.status).toBe(200)
    } finally {
      await second.close()
    }
    expect((await u.api.get('/agents')).status).toBe(401)
  })
})
