/**
 * A stored list read a step at a time as its rows' JSON (cache.listText, listRead.ts), on real
 * cache files: the same items as getList in the same order, with turns of the event loop between
 * steps, answered before its rows are all read, and the list as it stood when the read began
 * whatever is written between two steps.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type TempStores, tempStores } from '../../../test/support/offlineStores'
import { openOrRebuild } from './rebuild'
import { SqliteCacheStore } from './cache'
import { AT_ONCE, jsonStep } from './listRead'
import { ComingListText, listValues } from './listText'
import type { ListReadOptions, Resource } from './types'

let t: TempStores
beforeEach(() => {
  t = tempStores()
})
afterEach(() => t.cleanup())

const T1 = '2024-01-01T00:00:00.000Z'
const T2 = '2024-01-02T00:00:00.000Z'

const agents = (n: number, from = 0, name = 'Agent') =>
  Array.from({ length: n }, (_, i) => ({ id: `a${from + i}`, name: `${name} ${from + i}`, type: 'REACT' }))

/** A list read a step at a time whatever its length (listRead.ts' AT_ONCE: none read in one go). */
const STEPS: ListReadOptions = { atOnce: 0 }

/** Turns counted; `between(k)` runs at the k-th one (1-based), as a write between two steps would. */
function turns(between: (k: number) => void = () => {}) {
  const counter = {
    count: 0,
    turn: async () => {
      counter.count++
      between(counter.count)
    }
  }
  return counter
}

/** Whether a TRUNCATE checkpoint copies the whole log (no reader holds a snapshot of it). */
function logFoldable(): boolean {
  const db = openOrRebuild(t.file).db
  try {
    const [busy] = db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').raw(true).get() as number[]
    return busy === 0
  } finally {
    db.close()
  }
}

/** The list once all its texts are there: its items, their texts, its sync time (null: none). */
async function readWhole(cache: SqliteCacheStore, resource: Resource, scope: string, opts?: ListReadOptions) {
  const got = await cache.listText(resource, scope, opts)
  if (!got) return null
  const values = await listValues(got.value)
  return { values, texts: got.value.texts, length: got.value.length, syncedAt: got.syncedAt }
}

describe('cache.listText', () => {
  it('reads the same list as getList, as text, a step at a time', async () => {
    const { cache } = t.open()
    cache.putList('agents', '', agents(1_234), T1)
    cache.putItem('agents', { id: 'a7', name: 'Renamed', type: 'REACT' }, T2)
    cache.addToList('agents', '', 'a7', 'start') // there already: not added
    cache.putItem('agents', { id: 'x', name: 'Extra', type: 'REACT' }, T2)
    cache.addToList('agents', '', 'x', 'start')
    const counter = turns()
    const got = await readWhole(cache as SqliteCacheStore, 'agents', '', {
      ...STEPS,
      step: 100,
      countStep: 100,
      turn: counter.turn
    })
    // 1,235 members counted in 13 steps, and read in 13: a turn after each full one.
    expect(counter.count).toBe(24)
    expect(got?.syncedAt).toBe(T1)
    expect(got?.length).toBe(1_235)
    expect(got?.values).toEqual(cache.getList('agents', '')?.value)
    expect(got?.values.slice(0, 2)).toEqual([
      { id: 'x', name: 'Extra', type: 'REACT' },
      { id: 'a0', name: 'Agent 0', type: 'REACT' }
    ])
    // Each text is the row as stored; read at once, the same.
    expect(JSON.parse(got?.texts[8] as string)).toEqual({ id: 'a7', name: 'Renamed', type: 'REACT' })
    expect((await readWhole(cache as SqliteCacheStore, 'agents', '', { step: 10_000 }))?.texts).toEqual(
      got?.texts
    )
  })

  it('holds the rows of each step as SQLite joined them, as bytes: no text is made of a row', async () => {
    const { cache } = t.open()
    const named = agents(250).map((a, i) => ({ ...a, name: `${a.name} — ${'é😀'.repeat(i % 3)}` }))
    cache.putList('agents', '', named, T1)
    const got = await cache.listText('agents', '', { ...STEPS, step: 100 })
    const list = got?.value
    if (!(list instanceof ComingListText)) throw new Error('expected a list still coming')
    await list.whole()
    expect(list.held).toEqual({ texts: 0, bytes: 250 })
    expect(list.jsonParts().flatMap((p) => JSON.parse(p) as unknown[])).toEqual(
      cache.getList('agents', '')?.value
    )
    expect(list.jsonParts(150, 151).map((p) => JSON.parse(p) as unknown)).toEqual([[named[150]]])
  })

  it('answers once the count is known, each text once read', async () => {
    const { cache } = t.open()
    cache.putList('agents', '', agents(500), T1)
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let turned = 0
    const got = await cache.listText('agents', '', {
      ...STEPS,
      step: 200,
      turn: async () => {
        if (++turned === 1) await held
      }
    })
    const list = got?.value
    if (!(list instanceof ComingListText)) throw new Error('expected a list still coming')
    // The first step read; the rest waits for the turn.
    expect(list.length).toBe(500)
    expect(list.texts.length).toBe(200)
    let past300 = false
    const waited = list.until(300).then(() => (past300 = true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(past300).toBe(false)
    release()
    await waited
    await list.whole()
    expect(list.values()).toEqual(agents(500))
  })

  it('by default reads a step a turn of the event loop: what waits for the list (its reply) goes first', async () => {
    const { cache } = t.open()
    cache.putList('agents', '', agents(500), T1)
    const list = (await cache.listText('agents', '', { ...STEPS, step: 200 }))?.value
    if (!(list instanceof ComingListText)) throw new Error('expected a list still coming')
    // Whatever the promises still to settle, no step is read before the event loop's turn.
    for (let i = 0; i < 50; i++) await Promise.resolve()
    expect(list.texts.length).toBe(200)
    await new Promise((resolve) => setImmediate(resolve))
    expect(list.texts.length).toBe(400)
    await list.whole()
    expect(list.values()).toEqual(agents(500))
  })

  it('answers null for a list never stored, and an empty list as empty', async () => {
    const { cache } = t.open()
    const c = cache as SqliteCacheStore
    expect(await cache.listText('agents', '')).toBeNull()
    cache.putList('tools', '', [], T1)
    const empty = await readWhole(c, 'tools', '')
    expect(empty?.length).toBe(0)
    expect(empty?.syncedAt).toBe(T1)
    cache.putList('agentDocuments', 'agent:a1', [{ id: 'l1', agentId: 'a1', documentId: 'd1' }], T1)
    expect((await readWhole(c, 'agentDocuments', 'agent:a1'))?.values).toEqual([
      { id: 'l1', agentId: 'a1', documentId: 'd1' }
    ])
    expect(await cache.listText('agentDocuments', 'agent:a2')).toBeNull()
  })

  it('answers the list as it stood when the read began, whatever is written between steps', async () => {
    const { cache } = t.open()
    const first = agents(1_000)
    cache.putList('agents', '', first, T1)
    const counter = turns((k) => {
      if (k === 1) {
        // A new list (a new membership, published), an item added to the start, one removed
        // ahead of the read, one behind it, an item edited ahead.
        cache.putList('agents', '', agents(1_000, 500, 'New'), T2)
        cache.putItem('agents', { id: 'y', name: 'Y', type: 'REACT' }, T2)
        cache.addToList('agents', '', 'y', 'start')
        cache.removeItem('agents', 'a3')
        cache.removeItem('agents', 'a900')
        cache.putItem('agents', { id: 'a800', name: 'Edited', type: 'REACT' }, T2)
      }
    })
    const c = cache as SqliteCacheStore
    const got = await readWhole(c, 'agents', '', { ...STEPS, step: 100, turn: counter.turn })
    expect(counter.count).toBe(10)
    expect(got?.syncedAt).toBe(T1)
    expect(got?.values).toEqual(first)
    // Read again, it is the list as written since.
    const now = await readWhole(c, 'agents', '', { ...STEPS, step: 100, turn: async () => {} })
    expect(now?.syncedAt).toBe(T2)
    expect(now?.values).toEqual(cache.getList('agents', '')?.value)
    expect(now?.values[0]).toEqual({ id: 'y', name: 'Y', type: 'REACT' })
  })

  it('reads lists side by side, each on its own connection, each as it stood when its read began', async () => {
    const { cache } = t.open()
    const c = cache as SqliteCacheStore
    cache.putList('agents', '', agents(300), T1)
    cache.putList('tools', '', [{ id: 't1', name: 'Search' }], T1)
    const order: string[] = []
    let tools: Promise<unknown> = Promise.resolve()
    const a = readWhole(c, 'agents', '', {
      ...STEPS,
      step: 100,
      turn: async () => {
        order.push('agents step')
        if (order.length > 1) return
        // Written while the agents are read: the tools' read, begun after, shows it, and ends
        // before the agents' next step.
        cache.putList('tools', '', [{ id: 't2', name: 'Fetch' }], T2)
        tools = readWhole(c, 'tools', '').then((r) => {
          order.push('tools read')
          return r?.values
        })
        await tools
      }
    })
    const ra = await a
    expect(order).toEqual(['agents step', 'tools read', 'agents step', 'agents step'])
    expect(ra?.values).toEqual(agents(300))
    expect(await tools).toEqual([{ id: 't2', name: 'Fetch' }])
  })

  it('reads a paced list a piece past what was asked; let go, its read ends and holds no snapshot', async () => {
    const store = t.open()
    const c = store.cache as SqliteCacheStore
    c.putList('agents', '', agents(1_000), T1)
    c.putList('tools', '', [{ id: 't1', name: 'Search' }], T1)
    const got = await c.listText('agents', '', { ...STEPS, step: 100, turn: async () => {} })
    const list = got?.value
    if (!(list instanceof ComingListText)) throw new Error('expected a list still coming')
    list.pace(200)
    const read = async () => {
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve))
      return list.texts.length
    }
    // Nothing asked: a piece's worth (the first step had been read at once).
    expect(await read()).toBe(200)
    await list.until(300)
    expect(await read()).toBe(500)
    // Meanwhile another list reads to its end.
    expect((await readWhole(c, 'tools', ''))?.values).toEqual([{ id: 't1', name: 'Search' }])
    // Let go (its answer dropped): the read ends, its snapshot let go too.
    list.end(new Error('dropped'))
    await expect(list.whole()).rejects.toThrow('dropped')
    expect(await read()).toBe(500)
    c.putList('agents', '', agents(1_000, 0, 'Again'), T2)
    expect(logFoldable()).toBe(true)
    // A list left waiting for its taker ends when the cache is cleared (answer_gone).
    const again = (await c.listText('agents', '', { ...STEPS, step: 100 }))?.value
    if (!(again instanceof ComingListText)) throw new Error('expected a list still coming')
    again.pace(100)
    await read()
    c.clear()
    // Ended at once, though nobody asked for more.
    expect(await again.room()).toBe(false)
    await expect(again.whole()).rejects.toMatchObject({ code: 'answer_gone' })
    expect(await c.listText('agents', '')).toBeNull()
  })

  it('ends a list being read when the cache is cleared (answer_gone); read again, the cleared file', async () => {
    const { cache } = t.open()
    cache.putList('agents', '', agents(500), T1)
    const counter = turns((k) => {
      if (k === 2) cache.clear()
    })
    const got = await cache.listText('agents', '', { ...STEPS, step: 100, turn: counter.turn })
    await expect(listValues(got?.value ?? [])).rejects.toMatchObject({ code: 'answer_gone' })
    expect(await cache.listText('agents', '')).toBeNull()
    // Cleared while the list is counted: it is not there.
    cache.putList('agents', '', agents(500), T1)
    const counting = turns((k) => {
      if (k === 2) cache.clear()
    })
    expect(await cache.listText('agents', '', { ...STEPS, countStep: 100, turn: counting.turn })).toBeNull()
    expect(counting.count).toBe(2)
    cache.putList('agents', '', agents(3), T2)
    expect((await readWhole(cache as SqliteCacheStore, 'agents', ''))?.values).toEqual(agents(3))
  })

  it('holds no snapshot once a read is done: the log is folded back whole', async () => {
    const store = t.open()
    store.cache.putList('agents', '', agents(2_000), T1)
    await readWhole(store.cache as SqliteCacheStore, 'agents', '', {
      ...STEPS,
      step: 100,
      turn: async () => {}
    })
    store.cache.putList('agents', '', agents(2_000, 0, 'Again'), T2)
    // A reader still in a transaction would keep a TRUNCATE checkpoint from copying the log.
    expect(logFoldable()).toBe(true)
  })

  it('reads a stand-in in memory at once, the same list', async () => {
    const cache = new SqliteCacheStore(openOrRebuild(':memory:').db, t.file, 'none')
    cache.putList('agents', '', agents(250), T1)
    let turned = 0
    const got = await cache.listText('agents', '', { step: 100, turn: async () => void turned++ })
    expect(turned).toBe(0)
    expect(got?.value).not.toBeInstanceOf(ComingListText)
    expect(got?.value.values()).toEqual(agents(250))
    cache.release()
  })
})

describe('a list of up to AT_ONCE members', () => {
  it("is read in one go on the cache's own connection: all there when answered, no turn taken", async () => {
    const { cache } = t.open()
    const c = cache as SqliteCacheStore
    const named = agents(AT_ONCE).map((a, i) => ({ ...a, name: `${a.name} — ${'é😀'.repeat(i % 3)}` }))
    cache.putList('agents', '', named, T1)
    const counter = turns()
    const got = await c.listText('agents', '', { turn: counter.turn })
    const list = got?.value
    if (!(list instanceof ComingListText)) throw new Error('expected a list held as text')
    expect(counter.count).toBe(0)
    expect([list.length, list.ready]).toEqual([AT_ONCE, AT_ONCE])
    // As SQLite joined the rows: no text made of one.
    expect(list.held).toEqual({ texts: 0, bytes: AT_ONCE })
    expect(got?.syncedAt).toBe(T1)
    expect(await listValues(list)).toEqual(cache.getList('agents', '')?.value)
    // Its transaction ended with it: the log folds back whole.
    cache.putList('agents', '', agents(AT_ONCE, 0, 'Again'), T2)
    expect(logFoldable()).toBe(true)
  })

  it('and a longer list a step at a time, as it stood when its read began', async () => {
    const { cache } = t.open()
    const c = cache as SqliteCacheStore
    cache.putList('agents', '', agents(AT_ONCE + 1), T1)
    const counter = turns((k) => {
      if (k === 1) cache.putList('agents', '', agents(3, 0, 'New'), T2)
    })
    const got = await c.listText('agents', '', { turn: counter.turn })
    const list = got?.value
    if (!(list instanceof ComingListText)) throw new Error('expected a list still coming')
    // Answered with its first steps read, the rest to come.
    expect(list.length).toBe(AT_ONCE + 1)
    expect(list.ready).toBeLessThan(AT_ONCE + 1)
    expect(await listValues(list)).toEqual(agents(AT_ONCE + 1))
    expect(counter.count).toBeGreaterThan(0)
    // Three members now: read in one go.
    expect((await readWhole(c, 'agents', '', { turn: counter.turn }))?.values).toEqual(agents(3, 0, 'New'))
  })
})

describe('a list whose rows have all been read', () => {
  it('stays whole when its store closes before its read ends', async () => {
    const store = t.open()
    store.cache.putList('agents', '', agents(500), T1)
    const got = await store.cache.listText('agents', '', {
      ...STEPS,
      step: 250,
      turn: () => new Promise((resolve) => setTimeout(resolve, 5))
    })
    const list = got?.value
    if (!(list instanceof ComingListText)) throw new Error('expected a list still coming')
    await list.until(500)
    // Every row read, the read's last (empty) step not yet: the store closes.
    store.close()
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(await listValues(list)).toEqual(agents(500))
  })
})

describe('a step as SQLite joins its rows', () => {
  const joined = (texts: string[], positions: number[]) => [
    texts.length,
    Buffer.from(`[${texts.join(',')}]`),
    texts.map((t) => Buffer.byteLength(t)).join(','),
    positions.join(',')
  ]
  const texts = ['{"id":"a"}', '{"id":"é😀"}', '{"id":"c"}']

  it('is taken as it is when its rows come in order and their lengths add up', () => {
    const step = jsonStep(joined(texts, [3, 5, 9]))
    expect(step?.n).toBe(3)
    expect(step?.last).toBe(9)
    expect(step?.json?.lengths).toEqual([10, 15, 10])
    expect(jsonStep([0, null, null, null])).toEqual({ n: 0, last: null })
  })

  it('is read row by row otherwise: rows out of order, lengths that do not add up, no bytes', () => {
    expect(jsonStep(joined(texts, [3, 9, 5]))).toBeNull()
    expect(jsonStep(joined(texts, [3, 3, 5]))).toBeNull()
    const [n, bytes, , positions] = joined(texts, [1, 2, 3])
    expect(jsonStep([n, bytes, '10,14,10', positions])).toBeNull()
    expect(jsonStep([n, bytes, '10,15', positions])).toBeNull()
    expect(jsonStep([n, `[${texts.join(',')}]`, '10,15,10', positions])).toBeNull()
  })
})
