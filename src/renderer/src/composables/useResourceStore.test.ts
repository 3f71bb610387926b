import { describe, expect, it, vi } from 'vitest'
import { effectScope } from 'vue'
import type { Read, Write } from '../../../shared/ipc'
import { emitSessionReset } from './sessionBus'
import { useResourceStore } from './useResourceStore'

interface Item {
  id: string
  name: string
  note?: string
}

const read = <T>(data: T): Read<T> => ({ data, source: 'network', offline: false, syncedAt: null })
const written = <T>(data: T): Write<T> => ({ status: 'done', data })

/** A store over `list` (in its own effect scope). */
function storeOver(list: (input?: { cacheOnly?: boolean }) => Promise<Read<Item[]>>) {
  const scope = effectScope()
  const s = scope.run(() => useResourceStore<Item>({ resource: 'items', list }))
  if (!s) throw new Error('no store')
  return { s, stop: () => scope.stop() }
}

/** A store over an in-memory list, loaded (cache answer empty, network answer `items`). */
async function storeWith(items: Item[]) {
  const store = storeOver(async (input) => read(input?.cacheOnly ? [] : items.map((x) => ({ ...x }))))
  await store.s.state.ensureLoaded()
  return store
}

const names = (s: { state: { items: { value: Item[] } } }) => s.state.items.value.map((x) => x.name)

describe('useResourceStore', () => {
  it('loads once and finds by id', async () => {
    const { s, stop } = await storeWith([
      { id: 'a', name: 'A' },
      { id: 'b', name: 'B' }
    ])
    expect(names(s)).toEqual(['A', 'B'])
    expect(s.find('b')?.name).toBe('B')
    expect(s.find('zzz')).toBeUndefined()
    stop()
  })

  it('merges what a read carries over what the list knew', async () => {
    const { s, stop } = await storeWith([{ id: 'a', name: 'A', note: 'from the list' }])
    await s.fetched(async () => read({ id: 'a', name: 'A2' }))
    expect(s.find('a')).toEqual({ id: 'a', name: 'A2', note: 'from the list' })
    await s.created(async () => written({ id: 'c', name: 'C' }))
    expect(names(s)).toEqual(['C', 'A2'])
    stop()
  })

  it('shows an update at once and takes the answer', async () => {
    const { s, stop } = await storeWith([{ id: 'a', name: 'A', note: 'n' }])
    let seenDuring: string | undefined
    await s.patched(
      'a',
      (before) => ({ ...before, name: 'typed' }),
      async () => {
        seenDuring = s.find('a')?.name
        return written({ id: 'a', name: 'Typed (server)' })
      }
    )
    expect(seenDuring).toBe('typed')
    expect(s.find('a')).toEqual({ id: 'a', name: 'Typed (server)', note: 'n' })
    stop()
  })

  it('restores the item when the server refuses an update, and passes the error on', async () => {
    const { s, stop } = await storeWith([{ id: 'a', name: 'A' }])
    const refusal = new Error('name taken')
    await expect(
      s.patched(
        'a',
        (before) => ({ ...before, name: 'B' }),
        async () => {
          throw refusal
        }
      )
    ).rejects.toBe(refusal)
    expect(s.find('a')?.name).toBe('A')
    stop()
  })

  it('puts a refused delete back at its place', async () => {
    const { s, stop } = await storeWith([
      { id: 'a', name: 'A' },
      { id: 'b', name: 'B' },
      { id: 'c', name: 'C' }
    ])
    let during: string[] = []
    await expect(
      s.removed('b', async () => {
        during = names(s)
        throw new Error('not allowed')
      })
    ).rejects.toThrow('not allowed')
    expect(during).toEqual(['A', 'C'])
    expect(names(s)).toEqual(['A', 'B', 'C'])
    await s.removed('c', async () => written(null))
    expect(names(s)).toEqual(['A', 'B'])
    stop()
  })

  it('a list or item read that left before a delete does not bring the item back', async () => {
    // The list answers what the server held when it was asked, whenever the answer is let through.
    const server: Item[] = [
      { id: 'a', name: 'A' },
      { id: 'b', name: 'B' }
    ]
    const held: (() => void)[] = []
    const asked = () =>
      new Promise<Item[]>((resolve) => {
        const snapshot = server.map((x) => ({ ...x }))
        held.push(() => resolve(snapshot))
      })
    let hold = false
    const { s, stop } = storeOver(async (input) =>
      read(input?.cacheOnly ? [] : hold ? await asked() : server.map((x) => ({ ...x })))
    )
    await s.state.ensureLoaded()
    hold = true
    const loading = s.state.load()
    const getting = s.fetched(async () => {
      const copy = { ...server[1]! }
      await new Promise<void>((r) => held.push(r))
      return read(copy)
    })
    await s.removed('b', async () => {
      server.splice(1, 1)
      return written(null)
    })
    while (held.length) held.shift()?.()
    await loading
    await getting
    expect(names(s)).toEqual(['A'])
    // Put back by a refused delete, an item is shown by a read that left before the delete.
    const again = s.state.load()
    await expect(
      s.removed('a', async () => {
        throw new Error('not allowed')
      })
    ).rejects.toThrow('not allowed')
    while (held.length) held.shift()?.()
    await again
    expect(names(s)).toEqual(['A'])
    stop()
  })
  it('a list read that left before a create or an update neither hides the new item nor undoes the update', async () => {
    const server: Item[] = [{ id: 'a', name: 'A' }]
    const held: (() => void)[] = []
    let hold = false
    const { s, stop } = storeOver(async (input) => {
      if (input?.cacheOnly) return read([])
      const snapshot = server.map((x) => ({ ...x }))
      if (hold) await new Promise<void>((r) => held.push(r))
      return read(snapshot)
    })
    await s.state.ensureLoaded()
    hold = true
    // The page's list read leaves; then the user creates one item and renames another.
    const loading = s.state.load()
    await s.created(async () => {
      server.unshift({ id: 'c', name: 'C' })
      return written({ id: 'c', name: 'C' })
    })
    await s.patched(
      'a',
      (before) => ({ ...before, name: 'A2' }),
      async () => {
        server[1] = { id: 'a', name: 'A2' }
        return written({ id: 'a', name: 'A2' })
      }
    )
    // The answer, read before both, arrives last.
    while (held.length) held.shift()?.()
    await loading
    expect(names(s)).toEqual(['C', 'A2'])
    // The next read, asked after the writes, is taken as it is.
    hold = false
    server.splice(0, 1)
    await s.state.load()
    expect(names(s)).toEqual(['A2'])
    stop()
  })

  it('loads asked while one runs are made once, after it, and see what changed before they were asked', async () => {
    let items: Item[] = [{ id: 'a', name: 'A' }]
    const asked: string[] = []
    const gates: Promise<void>[] = [] // a network read waits for the next gate, if there is one
    const { s, stop } = storeOver(async (input) => {
      if (input?.cacheOnly) return read([])
      const answer = items.map((x) => ({ ...x }))
      asked.push(answer.map((x) => x.name).join())
      await gates.shift()
      return read(answer)
    })
    let open!: () => void
    gates.push(new Promise<void>((r) => (open = r)))
    const first = s.state.load()
    await vi.waitFor(() => expect(asked).toEqual(['A']))
    items = [...items, { id: 'b', name: 'B' }]
    const later = [s.state.load(), s.state.load(), s.state.load()]
    expect(new Set(later).size).toBe(1)
    open()
    await Promise.all([first, ...later])
    expect(asked).toEqual(['A', 'A,B'])
    expect(names(s)).toEqual(['A', 'B'])

    // After a session reset the next load goes at once, not after one still running for the last
    // user, and a load queued behind that one is not made.
    let hold!: () => void
    gates.push(new Promise<void>((r) => (hold = r)))
    const slow = s.state.load()
    await vi.waitFor(() => expect(asked).toHaveLength(3))
    const queued = s.state.load()
    emitSessionReset()
    items = [{ id: 'c', name: 'C' }]
    await s.state.load()
    expect(names(s)).toEqual(['C'])
    hold()
    await Promise.all([slow, queued])
    expect(names(s)).toEqual(['C'])
    expect(asked).toEqual(['A', 'A,B', 'A,B', 'C'])
    stop()
  })
})
