/**
 * Stores closing off main, and their files deleted when the cache is cleared (storeClosings.ts).
 * Real SQLite files, a real close thread.
 */
import { existsSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type TempStores, tempStores } from '../../test/support/offlineStores'
import { StoreClosings } from './storeClosings'

let t: TempStores
beforeEach(() => {
  t = tempStores()
})
afterEach(() => t.cleanup())

const agents = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `a${i}`, name: `Agent ${i}` }))
const tick = () => new Promise((resolve) => setTimeout(resolve, 1))

describe('StoreClosings', () => {
  it('tells of a deletion under way until the files are gone, so a session opens the file after it', async () => {
    const logged: string[] = []
    const closings = new StoreClosings(
      (m) => logged.push(m),
      () => false
    )
    const store = t.open()
    store.cache.putList('agents', '', agents(500), new Date().toISOString())
    // Watched: the deletion begins a few promise steps after the close (a thread's checkpoint)
    // ends, before any file work can end, so it is looked for between those steps.
    let closedOff: Promise<void> | undefined
    const closeOffMain = store.closeOffMain.bind(store)
    store.closeOffMain = () => (closedOff = closeOffMain())
    const closed = closings.close(store, t.file, () => true)
    expect(closings.removal(t.file)).toBeUndefined() // closing first
    while (!closedOff) await tick()
    await closedOff
    let removal: Promise<void> | undefined
    for (let i = 0; i < 50 && !removal; i++) {
      removal = closings.removal(t.file)
      await Promise.resolve()
    }
    expect(removal).toBeDefined()
    await removal
    expect(existsSync(t.file)).toBe(false)
    expect(closings.removal(t.file)).toBeUndefined()
    await closed
    // Opened after: a fresh store, nothing of the cleared one.
    expect(t.open().cache.getList('agents', '')).toBeNull()
    expect(logged).toEqual([])
  })

  it('deletes nothing of a file a session holds, nor when the cache is kept', async () => {
    const inUse = new Set<string>()
    const closings = new StoreClosings(
      () => undefined,
      (f) => inUse.has(f)
    )
    const kept = t.open()
    kept.cache.putList('agents', '', agents(3), new Date().toISOString())
    await closings.close(kept, t.file, () => false)
    expect(existsSync(t.file)).toBe(true)
    const held = t.open()
    inUse.add(t.file)
    const other = t.open()
    await closings.close(other, t.file, () => true)
    expect(closings.removal(t.file)).toBeUndefined()
    expect(held.cache.getList('agents', '')?.value).toHaveLength(3)
  })
})
