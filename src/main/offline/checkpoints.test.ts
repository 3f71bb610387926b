/**
 * A long list's write checkpoints on a thread (checkpoints.ts): main's commits only append to the
 * log meanwhile, the thread's last pass leaves nothing for main to copy, and the list is whole.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import Database from 'libsql'
import { type TempStores, tempStores } from '../../../test/support/offlineStores'
import type { SqliteCacheStore } from './cache'
import { join } from 'node:path'
import { CHECKPOINT_FROM_STEP, WAL_AUTOCHECKPOINT, WriteCheckpoints } from './checkpoints'
import { WRITE_STEP } from './listWrite'

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

describe('a long write checkpoints on a thread', () => {
  it('a list of many write steps is checkpointed by the thread, nothing left for main, the list whole', async () => {
    const store = t.open()
    const cache = store.cache as SqliteCacheStore
    const items = agents(WRITE_STEP * 12)
    await cache.putListInSteps('agents', '', items, '2026-11-27T00:00:00Z')
    expect(cache.threadCheckpoints).toBeGreaterThan(0)
    // The thread's last pass copied every frame: main's next commit has nothing to checkpoint.
    const [busy, frames, copied] = logState(t.file)
    expect(busy).toBe(0)
    expect(copied).toBe(frames)
    expect(cache.getList<{ id: string }>('agents', '')?.value.map((a) => a.id)).toEqual(
      items.map((a) => a.id)
    )
    // And again, every row changed (a new thread for the new write), then read from a new connection.
    const again = agents(WRITE_STEP * 12, ' (renamed)')
    await cache.putListInSteps('agents', '', again, '2026-11-27T00:01:00Z')
    expect(cache.threadCheckpoints).toBeGreaterThan(1)
    store.close()
    const reopened = t.open()
    const list = reopened.cache.getList<{ id: string; name: string }>('agents', '')?.value ?? []
    expect(list).toHaveLength(again.length)
    expect(list[7]?.name).toBe('Agent 7 (renamed)')
  })

  it('a short write starts no thread: main checkpoints in its commits, as before', async () => {
    const store = t.open()
    const cache = store.cache as SqliteCacheStore
    // One step of rows, one of members, and the list's head: fewer than CHECKPOINT_FROM_STEP.
    expect(CHECKPOINT_FROM_STEP).toBeGreaterThan(3)
    await cache.putListInSteps('agents', '', agents(WRITE_STEP), null)
    expect(cache.threadCheckpoints).toBe(0)
    expect(cache.getList('agents', '')?.value).toHaveLength(WRITE_STEP)
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
      // The reader still sees its snapshot; the checkpoints stopped short of what it reads.
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
      // The thread is given a file that is not there: it fails as it starts.
      const checkpoints = new WriteCheckpoints(db, join(t.dir, 'missing.sqlite'))
      for (let i = 1; i < CHECKPOINT_FROM_STEP; i++) expect(checkpoints.step()).toBeUndefined()
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
