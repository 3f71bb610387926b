/**
 * Stores closing off main, and their files deleted when the cache is cleared (storeClosings.ts).
 * Real SQLite files, a real close thread.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
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

  it("removes all of a profile's files once their closes end, but a store a session holds", async () => {
    const inUse = new Set<string>()
    const logged: string[] = []
    const closings = new StoreClosings(
      (m) => logged.push(m),
      (f) => inUse.has(f)
    )
    const dir = dirname(t.file)
    const file = (name: string) => join(dir, name)
    const closing = t.open(file('p--a.sqlite'))
    closing.cache.putList('agents', '', agents(50), new Date().toISOString())
    const held = t.open(file('p--b.sqlite'))
    held.cache.putList('agents', '', agents(5), new Date().toISOString())
    inUse.add(file('p--b.sqlite'))
    t.open(file('q--a.sqlite')).close()
    writeFileSync(file('p--a.sqlite.corrupt-2026-01-01T00-00-00-000Z'), 'moved aside')
    writeFileSync(file('p--a.sqlite.needs-rebuild'), 'marker')
    const closed = closings.close(closing, file('p--a.sqlite'), () => false)
    await closings.removeAll({ dir, prefix: 'p--' })
    await closed
    const left = readdirSync(dir)
    expect(left.filter((n) => n.startsWith('p--a'))).toEqual([])
    expect(left).toContain('p--b.sqlite')
    expect(left).toContain('q--a.sqlite')
    expect(held.cache.getList('agents', '')?.value).toHaveLength(5)
    expect(logged).toEqual([])
  })
})
