/**
 * A long list's write leaves its syncs to disk to a thread (checkpoints.ts): main's commits only
 * append to the log meanwhile, the thread copies it back and starts it afresh itself, and the list
 * is whole.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import Database from 'libsql'
import { openSync, readSync, closeSync, statSync, writeFileSync } from 'node:fs'
import { type TempStores, tempStores } from '../../../test/support/offlineStores'
import type { SqliteCacheStore } from './cache'
import { join } from 'node:path'
import { THREAD_FROM_BYTES, WAL_AUTOCHECKPOINT, WAL_CAP_BYTES, WriteCheckpoints } from './checkpoints'
import { WRITE_STEP } from './listWrite'
import { writeTransaction } from './db'

let t: TempStores
beforeEach(() => {
  t = tempStores()
})
afterEach(() => t.cleanup())

const agents = (n: number, tag = '') =>
  Array.from({ length: n }, (_, i) => ({ id: `a${i}`, name: `Agent ${i}${tag}`, notes: 'x'.repeat(600) }))

/** The log as another connection finds it: [busy, frames in it, frames copied into the file]. */
function logState(file: string): number[] {
  const db = new Database(file)
  try {
    return db.prepare('PRAGMA wal_checkpoint(PASSIVE)').raw(true).get() as number[]
  } finally {
    db.close()
  }
}

/** The log's salts (its header's bytes 16–24): new each time the log starts afresh. */
function salts(file: string): string {
  const fd = openSync(`${file}-wal`, 'r')
  try {
    const b = Buffer.alloc(8)
    readSync(fd, b, 0, 8, 16)
    return b.toString('hex')
  } finally {
    closeSync(fd)
  }
}

/** A connection set up as db.ts sets the cache's, on a table of pages: `write(n)` commits n pages' worth. */
function mainConnection(file: string) {
  const db = new Database(file)
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = NORMAL')
  db.exec(`PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT}`)
  db.exec(`PRAGMA journal_size_limit = ${WAL_CAP_BYTES}`)
  db.exec('CREATE TABLE IF NOT EXISTS t (x TEXT)')
  const insert = db.prepare('INSERT INTO t (x) VALUES (?)')
  const page = 'x'.repeat(3000)
  return {
    db,
    write: (pages: number) =>
      db.transaction(() => {
        for (let i = 0; i < pages; i++) insert.run(page)
      })(),
    autocheckpoint: () => (db.prepare('PRAGMA wal_autocheckpoint').raw(true).get() as number[])[0]
  }
}

describe('a long write leaves its syncs to a thread', () => {
  it('a list of many write steps is checkpointed by the thread, which leaves the log new and short', async () => {
    const store = t.open()
    const cache = store.cache as SqliteCacheStore
    const items = agents(WRITE_STEP * 12)
    await cache.putListInSteps('agents', '', items, '2026-11-27T00:00:00Z')
    expect(cache.threadWork.checkpoints).toBeGreaterThan(0)
    // The thread's last pass copied every frame and started the log afresh with one page of its
    // own, cutting the file back to it: main's next commit neither checkpoints nor syncs.
    expect(cache.threadWork.restarts).toBeGreaterThan(0)
    expect(statSync(`${t.file}-wal`).size).toBeLessThan(3 * 4096)
    const [busy, frames, copied] = logState(t.file)
    expect(busy).toBe(0)
    expect(copied).toBe(frames)
    expect(cache.getList<{ id: string }>('agents', '')?.value.map((a) => a.id)).toEqual(
      items.map((a) => a.id)
    )
    // And again, every row changed (a new thread for the new write), then read from a new connection.
    const again = agents(WRITE_STEP * 12, ' (renamed)')
    await cache.putListInSteps('agents', '', again, '2026-11-27T00:01:00Z')
    expect(cache.threadWork.checkpoints).toBeGreaterThan(1)
    store.close()
    const reopened = t.open()
    const list = reopened.cache.getList<{ id: string; name: string }>('agents', '')?.value ?? []
    expect(list).toHaveLength(again.length)
    expect(list[7]?.name).toBe('Agent 7 (renamed)')
  })

  it('a short write starts no thread', async () => {
    const store = t.open()
    const cache = store.cache as SqliteCacheStore
    // One step of rows, one of members, and the list's head: the log stays under THREAD_FROM_BYTES.
    await cache.putListInSteps('agents', '', agents(WRITE_STEP), null)
    expect(statSync(`${t.file}-wal`).size).toBeLessThan(THREAD_FROM_BYTES)
    expect(cache.threadWork.checkpoints).toBe(0)
    expect(cache.getList('agents', '')?.value).toHaveLength(WRITE_STEP)
  })

  it("main's commits during a write in steps neither checkpoint nor start the log afresh; after it they do again", () => {
    const file = join(t.dir, 'main.sqlite')
    const m = mainConnection(file)
    try {
      // A log past WAL_AUTOCHECKPOINT pages, not yet copied back.
      m.db.exec('PRAGMA wal_autocheckpoint = 0')
      m.write(WAL_AUTOCHECKPOINT + 50)
      m.db.exec(`PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT}`)
      const before = salts(file)
      const size = statSync(`${file}-wal`).size
      const checkpoints = new WriteCheckpoints(m.db, file)
      expect(m.autocheckpoint()).toBe(0)
      m.write(1)
      m.write(1)
      // Appended: the same log, longer (a checkpoint in the first commit would have let the second
      // start it afresh).
      expect(salts(file)).toBe(before)
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(size)
      void checkpoints.finish()
      expect(m.autocheckpoint()).toBe(WAL_AUTOCHECKPOINT)
      m.write(1)
      m.write(1)
      expect(salts(file)).not.toBe(before)
    } finally {
      m.db.close()
    }
  })

  it('past WAL_CAP_BYTES the write waits for the thread, which starts the log afresh itself', async () => {
    const file = join(t.dir, 'main.sqlite')
    const m = mainConnection(file)
    const work = { checkpoints: 0, restarts: 0 }
    try {
      const checkpoints = new WriteCheckpoints(m.db, file, work)
      let waited = false
      let before = salts(file)
      // ~1.2 MB a step: the thread starts at the first step past THREAD_FROM_BYTES.
      for (let i = 0; i < 6 && !waited; i++) {
        m.write(400)
        before = salts(file)
        const wait = checkpoints.step()
        if (wait) {
          await wait
          waited = true
        }
      }
      expect(waited).toBe(true)
      // The thread copied it all and wrote the new log's first page: the file holds that page alone.
      expect(work.restarts).toBe(1)
      expect(salts(file)).not.toBe(before)
      expect(statSync(`${file}-wal`).size).toBeLessThan(3 * 4096)
      // Main's next commit appends to the thread's new log.
      const fresh = salts(file)
      m.write(10)
      expect(salts(file)).toBe(fresh)
      await checkpoints.finish()
      expect(m.autocheckpoint()).toBe(WAL_AUTOCHECKPOINT)
      expect((m.db.prepare('SELECT COUNT(*) FROM t').raw(true).get() as number[])[0]).toBeGreaterThan(1000)
    } finally {
      m.db.close()
    }
  })

  it("two writes in steps on one connection: main's commits checkpoint again once both have ended", async () => {
    const file = join(t.dir, 'main.sqlite')
    const m = mainConnection(file)
    try {
      const a = new WriteCheckpoints(m.db, file)
      const b = new WriteCheckpoints(m.db, file)
      await a.finish()
      await a.finish() // a second finish counts once
      expect(m.autocheckpoint()).toBe(0)
      await b.finish()
      expect(m.autocheckpoint()).toBe(WAL_AUTOCHECKPOINT)
    } finally {
      m.db.close()
    }
  })

  it('a reader holding an old snapshot meanwhile neither fails the write nor is failed by it', async () => {
    const store = t.open()
    const cache = store.cache as SqliteCacheStore
    await cache.putListInSteps('agents', '', agents(WRITE_STEP * 2), null)
    const reader = new Database(t.file)
    try {
      reader.exec('BEGIN')
      const before = reader.prepare('SELECT COUNT(*) FROM items').raw(true).get() as number[]
      await cache.putListInSteps('agents', '', agents(WRITE_STEP * 12), null)
      // The reader still sees its snapshot; the checkpoints stopped short of what it reads, and
      // the log could not start afresh under it.
      expect(reader.prepare('SELECT COUNT(*) FROM items').raw(true).get()).toEqual(before)
      reader.exec('COMMIT')
    } finally {
      reader.close()
    }
    expect(cache.getList('agents', '')?.value).toHaveLength(WRITE_STEP * 12)
  })

  it('a thread that fails leaves main checkpointing in its commits again at once, and the write goes on', async () => {
    const db = new Database(join(t.dir, 'main.sqlite'))
    try {
      db.exec('PRAGMA journal_mode = WAL')
      const autocheckpoint = () => (db.prepare('PRAGMA wal_autocheckpoint').raw(true).get() as number[])[0]
      // The thread is given a file that is not there (beside a log long enough to start it): it
      // fails as it starts.
      const missing = join(t.dir, 'missing.sqlite')
      writeFileSync(`${missing}-wal`, Buffer.alloc(THREAD_FROM_BYTES + 1))
      const checkpoints = new WriteCheckpoints(db, missing)
      expect(autocheckpoint()).toBe(0)
      await checkpoints.step()
      await expect.poll(autocheckpoint).toBe(WAL_AUTOCHECKPOINT)
      expect(checkpoints.step()).toBeUndefined()
      await expect(checkpoints.finish()).resolves.toBeUndefined()
      expect(autocheckpoint()).toBe(WAL_AUTOCHECKPOINT)
    } finally {
      db.close()
    }
  })
})

describe("the thread's write beside main's", () => {
  it("a transaction of main's that reads, then writes while the thread starts the log afresh, waits its turn and is kept", async () => {
    const file = join(t.dir, 'main.sqlite')
    const m = mainConnection(file)
    try {
      const checkpoints = new WriteCheckpoints(m.db, file)
      // One step past WAL_CAP_BYTES: the thread starts, copies the log and starts it afresh.
      m.write(1400)
      const wait = checkpoints.step()
      expect(wait).toBeInstanceOf(Promise)
      await new Promise((resolve) => setImmediate(resolve))
      // Main's transaction meanwhile reads, holds on (longer than the thread takes), then writes.
      const count = m.db.prepare('SELECT COUNT(*) FROM t').raw(true)
      const insert = m.db.prepare('INSERT INTO t (x) VALUES (?)')
      const rows = writeTransaction(m.db, () => {
        const n = (count.get() as number[])[0] as number
        const until = Date.now() + 400
        while (Date.now() < until); // main busy in its transaction, as in a long step
        insert.run('after')
        return n + 1
      })
      await wait
      await checkpoints.finish()
      expect((count.get() as number[])[0]).toBe(rows)
    } finally {
      m.db.close()
    }
  })

  it('two long lists written at once, with edits between their steps, are both whole', async () => {
    const store = t.open()
    const cache = store.cache as SqliteCacheStore
    const many = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => ({
        id: `${prefix}${i}`,
        name: `${prefix} ${i}`,
        notes: 'y'.repeat(900)
      }))
    const agentsList = many(WRITE_STEP * 16, 'a')
    const toolsList = many(WRITE_STEP * 16, 't')
    let editing = true
    let edits = 0
    // An edit in every turn while the lists are written: each a transaction of its own on main's connection.
    const edit = async () => {
      while (editing) {
        cache.putItem('documents', { id: `d${edits % 50}`, name: `edit ${edits}` }, null)
        edits++
        await new Promise((resolve) => setImmediate(resolve))
      }
    }
    const editor = edit()
    try {
      await Promise.all([
        cache.putListInSteps('agents', '', agentsList, null),
        cache.putListInSteps('tools', '', toolsList, null)
      ])
    } finally {
      editing = false
      await editor
    }
    expect(edits).toBeGreaterThan(10)
    expect(cache.getList<{ id: string }>('agents', '')?.value.map((a) => a.id)).toEqual(
      agentsList.map((a) => a.id)
    )
    expect(cache.getList<{ id: string }>('tools', '')?.value.map((a) => a.id)).toEqual(
      toolsList.map((a) => a.id)
    )
  })
})
