/**
 * A store closes off main (closeThread.ts): main's event loop turns while the last checkpoint
 * waits, the log is folded back into the file all the same, and a store that cannot use the
 * thread closes as before. Real SQLite files, a real worker thread.
 */
import { existsSync, statSync } from 'node:fs'
import Database from 'libsql'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type TempStores, tempStores } from '../../../test/support/offlineStores'
import { closeOnThread } from './closeThread'

let t: TempStores
beforeEach(() => {
  t = tempStores()
})
afterEach(() => t.cleanup())

const agents = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `a${i}`, name: `Agent ${i}`, note: 'x'.repeat(200) }))
const walBytes = (file: string) => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0)

/** The longest gap between ticks of a 5 ms timer while `work` runs. */
async function longestGap(work: () => Promise<void>): Promise<number> {
  let last = performance.now()
  let longest = 0
  const timer = setInterval(() => {
    const now = performance.now()
    longest = Math.max(longest, now - last)
    last = now
  }, 5)
  try {
    await work()
  } finally {
    clearInterval(timer)
  }
  return Math.max(longest, performance.now() - last)
}

describe('closing a store off main', () => {
  it('keeps the event loop turning while the last checkpoint waits for a reader, then folds the log in', async () => {
    const store = t.open()
    store.cache.putList('agents', '', agents(500), '2026-11-30T00:00:00.000Z')
    expect(walBytes(t.file)).toBeGreaterThan(0)
    // Another connection reading: a TRUNCATE checkpoint waits for it (up to the busy timeout, 3 s).
    const reader = new Database(t.file, { readonly: true })
    reader.exec('BEGIN')
    reader.prepare('SELECT count(*) FROM items').raw(true).get()
    let closed = false
    const gap = await longestGap(async () => {
      const closing = store.closeOffMain().then(() => (closed = true))
      await new Promise((r) => setTimeout(r, 400))
      // Main's connection is closed by now, the thread's checkpoint still waits.
      expect(closed).toBe(false)
      reader.exec('COMMIT')
      reader.close()
      await closing
    })
    expect(closed).toBe(true)
    // On main, the close held the event loop until the reader let go (never, as it runs here too).
    expect(gap).toBeLessThan(200)
    expect(walBytes(t.file)).toBe(0)
    const again = t.open()
    expect(again.cache.getList('agents', '')?.value).toHaveLength(500)
  })

  it('closes on main, as before, where the thread cannot open the file', async () => {
    const calls: string[] = []
    await closeOnThread(
      `${t.dir}/none.sqlite`,
      () => calls.push('main only'),
      () => calls.push('checkpoint and close here')
    )
    expect(calls).toEqual(['checkpoint and close here'])
  })

  it('a second close does nothing; a store closed so opens again with its data', async () => {
    const store = t.open()
    store.cache.putList('agents', '', agents(20), null)
    await store.closeOffMain()
    await store.closeOffMain()
    store.close()
    expect(t.open().cache.getList('agents', '')?.value).toHaveLength(20)
  })
})
