import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import Database from 'libsql'
import { type TempStores, tempStores } from '../../../test/support/offlineStores'
import type { OfflineStore } from './index'
import { markForRebuild } from './db'
import { LIST_ROWS_WITH_IDS_SQL } from './cacheStatements'

interface AgentLike {
  id: string
  name?: string | undefined
  promptId?: string | null | undefined
  llm?: { provider?: string | undefined; model?: string | undefined }
  metadata?: Record<string, unknown>
  tags?: { id: string }[]
}

const T1 = '2024-01-01T00:00:00.000Z'
const T2 = '2024-01-02T00:00:00.000Z'

let t: TempStores
beforeEach(() => {
  t = tempStores()
})
afterEach(() => t.cleanup())

describe('items', () => {
  it('puts and gets an item with its syncedAt', () => {
    const { cache } = t.open()
    expect(cache.getItem('agents', 'a1')).toBeNull()
    cache.putItem<AgentLike>('agents', { id: 'a1', name: 'One' }, T1)
    expect(cache.getItem('agents', 'a1')).toEqual({ value: { id: 'a1', name: 'One' }, syncedAt: T1 })
    // Resources are separate namespaces.
    expect(cache.getItem('documents', 'a1')).toBeNull()
  })

  it('merges: a partial answer never blanks known fields; null replaces; explicit nested undefined keeps', () => {
    const { cache } = t.open()
    cache.putItem<AgentLike>(
      'agents',
      {
        id: 'a1',
        name: 'One',
        promptId: 'p1',
        llm: { provider: 'openai', model: 'gpt' },
        metadata: { a: 1, b: 2 }
      },
      T1
    )
    const merged = cache.putItem<AgentLike>(
      'agents',
      {
        id: 'a1',
        name: undefined,
        promptId: null,
        llm: { provider: 'anthropic', model: undefined },
        metadata: { a: 3 }
      },
      T2
    )
    const expected = {
      id: 'a1',
      name: 'One',
      promptId: null,
      llm: { provider: 'anthropic', model: 'gpt' },
      metadata: { a: 3 }
    }
    expect(merged).toEqual(expected)
    expect(cache.getItem('agents', 'a1')).toEqual({ value: expected, syncedAt: T2 })
    // A field missing entirely also keeps the cached value.
    cache.putItem<AgentLike>('agents', { id: 'a1' }, T2)
    expect(cache.getItem<AgentLike>('agents', 'a1')?.value.name).toBe('One')
  })

  it('accepts a null syncedAt for optimistic local values', () => {
    const { cache } = t.open()
    cache.putItem<AgentLike>('agents', { id: 'local-1', name: 'Draft' }, null)
    expect(cache.getItem('agents', 'local-1')?.syncedAt).toBeNull()
  })

  it('refuses items without a string id or unknown resources with a clear error', () => {
    const { cache } = t.open()
    expect(() => cache.putItem('agents', { id: '' }, T1)).toThrow(/non-empty string id/)
    expect(() => cache.putItem('agents', { id: 5 } as unknown as { id: string }, T1)).toThrow(/id/)
    expect(() => cache.getItem('nope' as 'agents', 'x')).toThrow(/Unknown cache resource/)
  })
})

describe('lists', () => {
  it('keeps stored order per scope and merges items on upsert', () => {
    const { cache } = t.open()
    expect(cache.getList('agents', '')).toBeNull()
    cache.putItem<AgentLike>('agents', { id: 'b', name: 'Bee', promptId: 'p' }, T1)
    cache.putList<AgentLike>(
      'agents',
      '',
      [{ id: 'c', name: 'Cee' }, { id: 'a', name: 'Ay' }, { id: 'b' }],
      T2
    )
    cache.putList<AgentLike>('agents', 'tag:x', [{ id: 'a' }], T1)
    const all = cache.getList<AgentLike>('agents', '')
    expect(all?.syncedAt).toBe(T2)
    expect(all?.value).toEqual([
      { id: 'c', name: 'Cee' },
      { id: 'a', name: 'Ay' },
      { id: 'b', name: 'Bee', promptId: 'p' }
    ])
    expect(cache.getList<AgentLike>('agents', 'tag:x')?.value).toEqual([{ id: 'a', name: 'Ay' }])
    // Replacing membership: 'c' leaves the list but stays in the catalogue.
    cache.putList<AgentLike>('agents', '', [{ id: 'b' }, { id: 'a' }, { id: 'a' }], T2)
    expect(cache.getList<AgentLike>('agents', '')?.value.map((a) => a.id)).toEqual(['b', 'a'])
    expect(cache.getItem('agents', 'c')).not.toBeNull()
    // An empty list is a list (known to be empty), not a miss.
    cache.putList('agents', 'empty', [], T1)
    expect(cache.getList('agents', 'empty')).toEqual({ value: [], syncedAt: T1 })
  })

  it("putList returns the merged items; an unchanged list read moves every item's sync time", () => {
    const { cache } = t.open()
    const T3 = '2024-01-03T00:00:00.000Z'
    cache.putItem<AgentLike>('agents', { id: 'a', name: 'Ay', promptId: 'p' }, T1)
    // A partial item merges onto what is cached, and putList hands back the merged value.
    const [a] = cache.putList<AgentLike>('agents', '', [{ id: 'a', name: 'Ay' }], T2)
    expect(a).toEqual({ id: 'a', name: 'Ay', promptId: 'p' })
    expect(cache.getItem('agents', 'a')?.syncedAt).toBe(T2)
    // An offline create joins the list; the next list read carries it along unchanged.
    const draft = cache.putItem<AgentLike>('agents', { id: 'local-1', name: 'Draft' }, null)
    expect(cache.addToList('agents', '', 'local-1', 'start')).toBe(true)
    const again = cache.putList<AgentLike>('agents', '', [draft, a!], T3)
    expect(again).toEqual([draft, a])
    // Nothing rewritten, yet the server's items count as confirmed at T3…
    expect(cache.getItem('agents', 'a')).toEqual({ value: a, syncedAt: T3 })
    // …while a value never confirmed by the server stays unsynced.
    expect(cache.getItem('agents', 'local-1')?.syncedAt).toBeNull()
    // A changed item in an unchanged membership is written.
    cache.putList<AgentLike>('agents', '', [draft, { id: 'a', name: 'Renamed' }], T3)
    expect(cache.getItem<AgentLike>('agents', 'a')?.value).toEqual({
      id: 'a',
      name: 'Renamed',
      promptId: 'p'
    })
    // An older list holding the item does not make it look older.
    cache.putList<AgentLike>('agents', 'tag:x', [{ id: 'a' }], T1)
    expect(cache.getItem('agents', 'a')?.syncedAt).toBe(T3)
  })

  it('removeItem removes the item from every list of that resource and from the catalogue', () => {
    const { cache } = t.open()
    cache.putList('agentDocuments', 'agent:1', [{ id: 'l1' }, { id: 'l2' }], T1)
    cache.putList('agentDocuments', '', [{ id: 'l2' }, { id: 'l1' }, { id: 'l3' }], T1)
    cache.putList('agentTools', '', [{ id: 'l1' }], T1)
    cache.removeItem('agentDocuments', 'l1')
    expect(cache.getList<{ id: string }>('agentDocuments', 'agent:1')?.value.map((x) => x.id)).toEqual(['l2'])
    expect(cache.getList<{ id: string }>('agentDocuments', '')?.value.map((x) => x.id)).toEqual(['l2', 'l3'])
    expect(cache.getItem('agentDocuments', 'l1')).toBeNull()
    expect(cache.catalogue<{ id: string }>('agentDocuments').map((x) => x.id)).not.toContain('l1')
    // Other resources are untouched.
    expect(cache.getList<{ id: string }>('agentTools', '')?.value).toEqual([{ id: 'l1' }])
  })

  it('putList is atomic: a bad item leaves the previous list and items intact', () => {
    const { cache } = t.open()
    cache.putList<AgentLike>(
      'agents',
      '',
      [
        { id: 'a', name: 'Ay' },
        { id: 'b', name: 'Bee' }
      ],
      T1
    )
    const unserialisable = { id: 'c', name: 'Cee', big: 10n }
    expect(() =>
      cache.putList(
        'agents',
        '',
        [{ id: 'a', name: 'Changed' }, { id: 'x', name: 'New' }, unserialisable],
        T2
      )
    ).toThrow()
    expect(() => cache.putList('agents', '', [{ id: 'a', name: 'Changed' }, { id: '' }], T2)).toThrow(/id/)
    expect(cache.getList('agents', '')).toEqual({
      value: [
        { id: 'a', name: 'Ay' },
        { id: 'b', name: 'Bee' }
      ],
      syncedAt: T1
    })
    expect(cache.getItem('agents', 'x')).toBeNull()
  })

  it('addToList puts a cached id at the start or end without rewriting the list', () => {
    const { cache } = t.open()
    cache.putList('tags', '', [{ id: 'a' }, { id: 'b' }], T1)
    cache.putItem('tags', { id: 'n' }, null)
    cache.putItem('tags', { id: 'z' }, null)
    expect(cache.addToList('tags', '', 'n', 'start')).toBe(true)
    expect(cache.addToList('tags', '', 'z', 'end')).toBe(true)
    expect(cache.addToList('tags', '', 'n')).toBe(false)
    expect(cache.addToList('tags', 'missing', 'n')).toBe(false)
    expect(cache.getList<{ id: string }>('tags', '')?.value.map((x) => x.id)).toEqual(['n', 'a', 'b', 'z'])
  })
})

describe('members created offline (localMembers)', () => {
  it('are the list members with a local id, in list order, found without reading the rest', () => {
    const { cache } = t.open()
    const ids = ['a', 'local-2', 'localx', 'b', 'local-1', 'local.', 'local']
    cache.putList(
      'agents',
      '',
      ids.map((id) => ({ id, name: id.toUpperCase() })),
      T1
    )
    cache.putItem('agents', { id: 'local-0', name: 'New' }, null)
    cache.addToList('agents', '', 'local-0', 'start')
    // In another list only, or in no list: not this list's.
    cache.putList('agents', 'tag:t1', [{ id: 'local-9' }], T1)
    cache.putItem('agents', { id: 'local-8' }, null)
    expect(cache.localMembers('agents', '')).toEqual([
      { id: 'local-0', name: 'New' },
      { id: 'local-2', name: 'LOCAL-2' },
      { id: 'local-1', name: 'LOCAL-1' }
    ])
    expect(cache.localMembers('agents', 'tag:t1')).toEqual([{ id: 'local-9' }])
    expect(cache.localMembers('agents', 'never')).toEqual([])
    expect(cache.localMembers('tools', '')).toEqual([])
    // Through the index on ids: the plan SQLite makes for it searches list_items by id.
    const db = new Database(t.file)
    try {
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN ${LIST_ROWS_WITH_IDS_SQL}`)
        .all('agents', '', 'local-', 'local.') as { detail: string }[]
      expect(plan.map((r) => r.detail).join('\n')).toMatch(
        /SEARCH l USING INDEX list_items_id \(resource=\? AND id>\? AND id<\?\)/
      )
    } finally {
      db.close()
    }
  })
})

describe('catalogue, meta, clear, persistence', () => {
  it('catalogue lists every item ever seen, newest seen first, in server order within one list', () => {
    const { cache } = t.open()
    cache.putList('documents', '', [{ id: 'd1' }, { id: 'd2' }], T1)
    cache.putItem('documents', { id: 'd3' }, T1)
    cache.putList('documents', '', [{ id: 'd3' }], T2) // re-seen items keep their place
    expect(cache.catalogue<{ id: string }>('documents').map((d) => d.id)).toEqual(['d3', 'd1', 'd2'])
    expect(cache.catalogue('tools')).toEqual([])
  })

  it('meta round-trips and clear wipes cache, catalogue and meta but not the outbox', () => {
    const store = t.open()
    const { cache, outbox } = store
    cache.setMeta('lastSyncedAt', T1)
    cache.setMeta('lastSyncedAt', T2)
    expect(cache.getMeta('lastSyncedAt')).toBe(T2)
    expect(cache.getMeta('missing')).toBeNull()
    cache.putList('agents', '', [{ id: 'a' }], T1)
    outbox.enqueue({ channel: 'agents.delete', label: 'Delete', input: { id: 'a' } })
    cache.clear()
    expect(cache.getList('agents', '')).toBeNull()
    expect(cache.getItem('agents', 'a')).toBeNull()
    expect(cache.catalogue('agents')).toEqual([])
    expect(cache.getMeta('lastSyncedAt')).toBeNull()
    expect(outbox.list()).toHaveLength(1)
    cache.clear({ clearOutbox: true })
    expect(outbox.list()).toHaveLength(0)
  })

  it('persists across close and reopen', () => {
    const a = t.open()
    a.cache.putList<AgentLike>('agents', '', [{ id: 'a', name: 'Ay' }], T1)
    a.cache.setMeta('k', 'v')
    a.close()
    a.close() // idempotent
    const b = t.open()
    expect(b.rebuilt).toBe(false)
    expect(b.cache.getList('agents', '')).toEqual({ value: [{ id: 'a', name: 'Ay' }], syncedAt: T1 })
    expect(b.cache.getMeta('k')).toBe('v')
  })
})

describe('remapId', () => {
  it('rewrites a temporary id across items, lists, scopes and references', () => {
    const { cache } = t.open()
    cache.putList<AgentLike>('agents', '', [{ id: 'local-1', name: 'Offline' }, { id: 'a' }], null)
    cache.putList(
      'agentDocuments',
      'agent:local-1',
      [{ id: 'local-2', agentId: 'local-1', documentId: 'd' }],
      null
    )
    cache.putItem<AgentLike>('agents', { id: 'r1', promptId: 'p' }, T2) // the server's answer, cached already
    cache.remapId('local-1', 'r1')
    expect(cache.getItem('agents', 'local-1')).toBeNull()
    expect(cache.getItem('agents', 'r1')).toEqual({
      value: { id: 'r1', name: 'Offline', promptId: 'p' },
      syncedAt: T2
    })
    expect(cache.getList<AgentLike>('agents', '')?.value.map((a) => a.id)).toEqual(['r1', 'a'])
    expect(cache.getList('agentDocuments', 'agent:local-1')).toBeNull()
    expect(cache.getList('agentDocuments', 'agent:r1')?.value).toEqual([
      { id: 'local-2', agentId: 'r1', documentId: 'd' }
    ])
  })
})

describe('long lists in steps', () => {
  it('leaves main free between steps, writes the list whole at the end, and keeps a change made meanwhile', async () => {
    const { cache } = t.open()
    const old = Array.from({ length: 3 }, (_, i) => ({ id: `a${i}`, name: `old ${i}` }))
    cache.putList<AgentLike>('agents', '', old, T1)
    const items = Array.from({ length: 2_000 }, (_, i) => ({ id: `a${i}`, name: `new ${i}` }))
    let turns = 0
    let done = false
    const tick = () => {
      turns += 1
      if (!done) setImmediate(tick)
    }
    setImmediate(tick)
    const writing = cache.putListInSteps<AgentLike>('agents', '', items, T2)
    // Meanwhile: a reader sees the previous list as it was, and an edit lands on a listed item.
    expect(cache.getList('agents', '')).toEqual({ value: old, syncedAt: T1 })
    cache.putItem<AgentLike>('agents', { id: 'a1', name: 'old 1', metadata: { mine: true } }, null)
    const stored = await writing
    done = true
    expect(turns).toBeGreaterThan(1) // the event loop turned between the steps
    const list = cache.getList<AgentLike>('agents', '')
    expect(list?.syncedAt).toBe(T2)
    expect(list?.value.map((a) => a.name)).toEqual(items.map((a) => a.name))
    // The edit made between the steps is merged under the server's item, not overwritten.
    expect(stored[1]).toEqual({ id: 'a1', name: 'new 1', metadata: { mine: true } })
    expect(cache.getItem('agents', 'a1')?.value).toEqual({
      id: 'a1',
      name: 'new 1',
      metadata: { mine: true }
    })
  })

  it('checks every item before writing anything', async () => {
    const { cache } = t.open()
    cache.putList<AgentLike>('agents', '', [{ id: 'a0', name: 'kept' }], T1)
    const bad = [...Array.from({ length: 1_000 }, (_, i) => ({ id: `b${i}` })), { name: 'no id' }]
    await expect(cache.putListInSteps('agents', '', bad as AgentLike[], T2)).rejects.toThrow(/id/)
    expect(cache.getList('agents', '')).toEqual({ value: [{ id: 'a0', name: 'kept' }], syncedAt: T1 })
    expect(cache.getItem('agents', 'b0')).toBeNull()
  })
  it('compares the stored membership a step at a time: any difference is written, the same order is kept', async () => {
    const { cache } = t.open()
    const ids = (xs: { id: string }[]) => xs.map((x) => x.id)
    const names = () => cache.getList<AgentLike>('agents', '')?.value.map((a) => a.id)
    const agents = Array.from({ length: 1_200 }, (_, i) => ({ id: `a${i}`, name: `Agent ${i}` }))
    cache.putList<AgentLike>('agents', '', agents, T1)
    // Stored positions with a gap and one before the first: x, a0 … a1199 without a600.
    cache.putItem<AgentLike>('agents', { id: 'x', name: 'X' }, T1)
    cache.addToList('agents', '', 'x', 'start')
    cache.removeItem('agents', 'a600')
    const same = [{ id: 'x', name: 'X' }, ...agents.filter((a) => a.id !== 'a600')]
    expect(names()).toEqual(ids(same))
    await cache.putListInSteps<AgentLike>('agents', '', same, T2)
    expect(names()).toEqual(ids(same))

    const swapped: AgentLike[] = same.slice()
    ;[swapped[1100], swapped[1101]] = [swapped[1101] as AgentLike, swapped[1100] as AgentLike]
    const variants = [
      swapped,
      swapped.slice(0, -1), // shorter
      [...swapped, { id: 'y', name: 'Y' }], // longer
      swapped.slice(1), // everything moves up one
      [...agents, agents[5] as AgentLike] // a repeated item is listed once
    ]
    for (const v of variants) {
      await cache.putListInSteps<AgentLike>('agents', '', v, T2)
      expect(names()).toEqual([...new Set(ids(v))])
    }
  })
})

describe('a list read again from the same answer', () => {
  const T3 = '2024-01-03T00:00:00.000Z'
  const list = Array.from({ length: 3 }, (_, i) => ({ id: `a${i}`, name: `Agent ${i}` }))
  /** Changes a row behind the cache's back (another connection): shows whether the cache reads it. */
  const behind = (id: string) => {
    const db = new Database(t.file)
    db.prepare('UPDATE items SET json = ? WHERE resource = ? AND id = ?').run(
      JSON.stringify({ id, name: 'changed behind' }),
      'agents',
      id
    )
    db.close()
  }
  const row = (cache: OfflineStore['cache'], id: string) => cache.getItem<AgentLike>('agents', id)?.value.name

  it('is taken as stored once its items were found stored: only its sync time is written', async () => {
    const { cache } = t.open()
    cache.putList<AgentLike>('agents', '', list, T1, 'answer-1') // new items: written, not remembered
    behind('a1')
    await cache.putListInSteps<AgentLike>('agents', '', list, T2, 'answer-1')
    expect(row(cache, 'a1')).toBe('Agent 1') // compared and written back: not remembered
    await cache.putListInSteps<AgentLike>('agents', '', list, T2, 'answer-1')
    // Found stored as given: the same answer from now on is not compared item by item.
    behind('a1')
    const again = await cache.putListInSteps<AgentLike>('agents', '', list, T3, 'answer-1')
    expect(again).toEqual(list)
    expect(cache.getList('agents', '')?.syncedAt).toBe(T3)
    expect(row(cache, 'a1')).toBe('changed behind')
    // Another answer is compared again, and no answer at all is too.
    await cache.putListInSteps<AgentLike>('agents', '', list, T3, 'answer-2')
    expect(row(cache, 'a1')).toBe('Agent 1')
    behind('a1')
    cache.putList<AgentLike>('agents', '', list, T3)
    expect(row(cache, 'a1')).toBe('Agent 1')
  })

  it('counts a row with the same fields in another order as stored, not one with more fields', () => {
    const { cache } = t.open()
    const twice = () => [0, 1].map(() => cache.putList<AgentLike>('agents', '', list, T2, 'same'))
    // Stored first by a create (fields in another order): nothing to write, and remembered.
    for (const a of list) cache.putItem<AgentLike>('agents', { name: a.name, id: a.id }, T1)
    expect(twice()[1]).toEqual(list)
    behind('a1')
    cache.putList<AgentLike>('agents', '', list, T3, 'same')
    expect(row(cache, 'a1')).toBe('changed behind')
    // A row that knows more than the list tells (a detail read) keeps it, so the answer is never
    // taken as stored: the stored item is what the list must give.
    cache.putItem<AgentLike>('agents', { id: 'a1', name: 'Agent 1', metadata: { more: true } }, T1)
    expect(twice()[1]?.[1]).toEqual({ id: 'a1', name: 'Agent 1', metadata: { more: true } })
    behind('a1')
    expect(cache.putList<AgentLike>('agents', '', list, T3, 'same')[1]?.name).toBe('Agent 1')
    expect(row(cache, 'a1')).toBe('Agent 1')
  })

  it('is not remembered from a list with an id twice, or when the resource was written meanwhile', async () => {
    const { cache } = t.open()
    const twice = [...list, list[0] as AgentLike]
    for (let i = 0; i < 3; i++) cache.putList<AgentLike>('agents', '', twice, T2, 'twice')
    behind('a1')
    cache.putList<AgentLike>('agents', '', twice, T3, 'twice')
    expect(row(cache, 'a1')).toBe('Agent 1')

    const long = Array.from({ length: 1_200 }, (_, i) => ({ id: `a${i}`, name: `Agent ${i}` }))
    await cache.putListInSteps<AgentLike>('agents', '', long, T1)
    const reading = cache.putListInSteps<AgentLike>('agents', '', long, T2, 'long')
    cache.putItem<AgentLike>('agents', { id: 'a5', name: 'Agent 5' }, T2) // the same item, written meanwhile
    await reading
    behind('a1')
    await cache.putListInSteps<AgentLike>('agents', '', long, T3, 'long')
    expect(row(cache, 'a1')).toBe('Agent 1')
  })

  it('is shared by the stores open on one file, and not with one on a rebuilt file', () => {
    const a = t.open().cache
    const b = t.open().cache // e.g. a session ending while its read is on its way, and the next one
    a.putList<AgentLike>('agents', '', list, T1, 'same')
    a.putList<AgentLike>('agents', '', list, T1, 'same')
    b.putItem<AgentLike>('agents', { id: 'a1', name: 'edited' }, T2)
    a.putList<AgentLike>('agents', '', list, T2, 'same')
    expect(row(a, 'a1')).toBe('Agent 1')
    a.putList<AgentLike>('agents', '', list, T2, 'same') // remembered again: both see it
    behind('a1')
    b.putList<AgentLike>('agents', '', list, T3, 'same')
    expect(row(b, 'a1')).toBe('changed behind')

    markForRebuild(t.file)
    const rebuilt = t.open()
    expect(rebuilt.rebuilt).toBe(true)
    rebuilt.cache.putList<AgentLike>('agents', '', list, T3, 'same')
    expect(rebuilt.cache.getList<AgentLike>('agents', '')?.value).toEqual(list)
  })

  it('is compared again after any write to that resource, not after one to another', () => {
    const { cache } = t.open()
    const remember = () => {
      cache.putList<AgentLike>('agents', '', list, T1, 'same')
      cache.putList<AgentLike>('agents', '', list, T1, 'same')
    }
    const writes: [string, () => void][] = [
      ['putItem', () => cache.putItem<AgentLike>('agents', { id: 'a1', name: 'edited' }, null)],
      ['removeItem', () => cache.removeItem('agents', 'a2')],
      ['addToList', () => (cache.putItem('agents', { id: 'x' }, null), cache.addToList('agents', '', 'x'))],
      ['another list', () => cache.putList<AgentLike>('agents', 'agent:x', [{ id: 'a1', name: 'e' }], T2)],
      ['remapId', () => cache.remapId('a2', 'a9')],
      ['clear', () => cache.clear()]
    ]
    for (const [what, write] of writes) {
      remember()
      write()
      const stored = cache.putList<AgentLike>('agents', '', list, T2, 'same')
      expect(stored, what).toEqual(list)
      expect(cache.getList<AgentLike>('agents', '')?.value, what).toEqual(list)
    }
    // A write to another resource leaves the agents' answer remembered.
    remember()
    cache.putItem('documents', { id: 'd1', name: 'Doc' }, T2)
    cache.putList('tools', '', [{ id: 't1', name: 'Tool' }], T2, 'same')
    behind('a1')
    cache.putList<AgentLike>('agents', '', list, T3, 'same')
    expect(row(cache, 'a1')).toBe('changed behind')
  })
})
