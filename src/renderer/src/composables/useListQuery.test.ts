import { describe, expect, it } from 'vitest'
import { ref } from 'vue'
import { useListQuery } from './useListQuery'

interface Item {
  id: string
  name: string
  type: string
  createdAt: string
}

const items = ref<Item[]>(
  Array.from({ length: 10_000 }, (_, i) => ({
    id: `d${i}`,
    name: `Doc ${String(i).padStart(5, '0')}${i % 1000 === 7 ? ' budget' : ''}`,
    type: i % 2 ? 'PDF' : 'TXT',
    createdAt: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString()
  }))
)

describe('useListQuery', () => {
  it('searches by name, filters by type and sorts by name or date over 10,000 items', () => {
    const q = useListQuery(items, { name: (d) => d.name, type: (d) => d.type, date: (d) => d.createdAt })
    expect(q.rows.value).toHaveLength(10_000)
    expect(q.rows.value[0]!.id).toBe('d9999') // newest first by default
    q.search.value = 'BUDGET'
    expect(q.rows.value.map((d) => d.id).sort()).toEqual(
      ['d1007', 'd2007', 'd3007', 'd4007', 'd5007', 'd6007', 'd7007', 'd8007', 'd9007', 'd7'].sort()
    )
    q.type.value = 'TXT'
    expect(q.rows.value).toHaveLength(0)
    q.type.value = 'PDF'
    q.sort.value = 'name-asc'
    expect(q.rows.value[0]!.id).toBe('d7')
    q.sort.value = 'name-desc'
    expect(q.rows.value[0]!.id).toBe('d9007')
    q.search.value = ''
    q.type.value = null
    q.sort.value = 'oldest'
    expect(q.rows.value[0]!.id).toBe('d0')
    q.listTypes()
    expect(q.typeOptions.value.map((o) => o.value).sort()).toEqual(['PDF', 'TXT'])
  })

  it('offers the known types and, once its menu opened, every other type an item has, each once, however many', () => {
    for (const kinds of [3, 40]) {
      const list = ref(
        Array.from({ length: 2000 }, (_, i) => ({
          id: `i${i}`,
          name: `n${i}`,
          type: i % 7 ? `T${i % kinds}` : ''
        }))
      )
      let read = 0
      const q = useListQuery(list, {
        name: (x) => x.name,
        type: (x) => (read++, x.type),
        types: ['KNOWN', 'T1']
      })
      // Until the menu opens, no item's type is read: the known ones, and the one chosen.
      expect(q.typeOptions.value.map((o) => o.value)).toEqual(['KNOWN', 'T1'])
      q.type.value = 'T2'
      expect(q.typeOptions.value.map((o) => o.value)).toEqual(['KNOWN', 'T1', 'T2'])
      q.type.value = null
      expect(read).toBe(0)
      q.listTypes()
      const expected = ['KNOWN', ...Array.from({ length: kinds }, (_, k) => `T${k}`)].sort()
      expect(q.typeOptions.value.map((o) => o.value).sort()).toEqual(expected)
      expect(read).toBe(2000)
    }
  })

  it('lower-cases the names for the search once one is typed, not before the rows are shown', () => {
    const list = ref(Array.from({ length: 100 }, (_, i) => ({ id: `i${i}`, name: `Item ${i}` })))
    const q = useListQuery(list, { name: (x) => x.name })
    const lower = String.prototype.toLowerCase
    // Names lower-cased (the query is too, and so may be the test's own strings).
    let calls = 0
    const counting = function (this: string) {
      if (this.startsWith('Item ')) calls++
      return lower.call(this)
    }
    Object.defineProperty(String.prototype, 'toLowerCase', {
      value: counting,
      configurable: true,
      writable: true
    })
    try {
      expect(q.rows.value).toHaveLength(100)
      expect(calls).toBe(0)
      q.search.value = 'ITEM 7'
      expect(q.rows.value.map((r) => r.id)).toEqual([
        'i7',
        ...Array.from({ length: 10 }, (_, k) => `i${70 + k}`)
      ])
      // Each name once, for this search and the next.
      expect(calls).toBe(100)
      q.search.value = 'item 70'
      expect(q.rows.value.map((r) => r.id)).toEqual(['i70'])
      expect(calls).toBe(100)
    } finally {
      Object.defineProperty(String.prototype, 'toLowerCase', {
        value: lower,
        configurable: true,
        writable: true
      })
    }
  })

  it('filters by tags (all of the chosen ones), keeps the sort while typing, and sorts each change once', () => {
    interface Tagged {
      id: string
      name: string
      tags: { id: string }[]
      createdAt: string
    }
    const list = ref<Tagged[]>([
      { id: 'a', name: 'Beta bot', tags: [{ id: 't1' }], createdAt: '2024-01-03T00:00:00Z' },
      { id: 'b', name: 'alpha bot', tags: [{ id: 't1' }, { id: 't2' }], createdAt: '2024-01-01T00:00:00Z' },
      { id: 'c', name: 'Gamma', tags: [], createdAt: '2024-01-02T00:00:00Z' },
      { id: 'd', name: 'agent 10', tags: [{ id: 't2' }], createdAt: '2024-01-04T00:00:00Z' },
      { id: 'e', name: 'agent 9', tags: [], createdAt: '2024-01-05T00:00:00Z' }
    ])
    let named = 0
    const q = useListQuery(list, {
      name: (t) => {
        named++
        return t.name
      },
      date: (t) => t.createdAt,
      tags: (t) => t.tags.map((x) => x.id),
      initialSort: 'name-asc'
    })
    // Case-insensitive, numbers in natural order.
    expect(q.rows.value.map((t) => t.id)).toEqual(['e', 'd', 'b', 'a', 'c'])
    expect(q.active.value).toBe(false)
    q.toggleTag('t1')
    expect(q.rows.value.map((t) => t.id)).toEqual(['b', 'a'])
    q.toggleTag('t2')
    expect(q.rows.value.map((t) => t.id)).toEqual(['b'])
    q.toggleTag('t1')
    expect(q.tags.value).toEqual(['t2'])
    expect(q.rows.value.map((t) => t.id)).toEqual(['d', 'b'])
    expect(q.active.value).toBe(true)
    q.toggleTag('t2')
    // Typing filters the sorted list without sorting (or reading names) again.
    const before = named
    for (const text of ['b', 'bo', 'bot', 'BOT ']) {
      q.search.value = text
      expect(q.rows.value.map((t) => t.id)).toEqual(['b', 'a'])
    }
    expect(named).toBe(before)
    // Emptying the filter gives back the one sorted array, not a copy: the list (and its virtual
    // list's key map) sees no new array between two keys that both end on the whole list.
    q.search.value = ''
    const whole = q.rows.value
    expect(whole.map((t) => t.id)).toEqual(['e', 'd', 'b', 'a', 'c'])
    q.search.value = 'x'
    expect(q.rows.value).toEqual([])
    q.search.value = ' '
    expect(q.rows.value).toBe(whole)
    expect(named).toBe(before)
    // A row holds the item itself under its id; a filter's result holds the same rows.
    expect(whole.every((r) => r.item === list.value.find((x) => x.id === r.id))).toBe(true)
    q.search.value = 'bot'
    expect(q.rows.value.length).toBe(2)
    expect(q.rows.value.every((r) => whole.includes(r))).toBe(true)
    q.search.value = ''
    q.sort.value = 'newest'
    expect(q.rows.value.map((t) => t.id)).toEqual(['e', 'd', 'a', 'c', 'b'])
    expect(q.rows.value).not.toBe(whole)
    q.search.value = 'bot'
    expect(q.rows.value.map((t) => t.id)).toEqual(['a', 'b'])
    q.search.value = ''
    expect(q.rows.value.map((t) => t.id)).toEqual(['e', 'd', 'a', 'c', 'b'])
  })
})
