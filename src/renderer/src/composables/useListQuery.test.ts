import { describe, expect, it } from 'vitest'
import { ref } from 'vue'
import fc from 'fast-check'
import { digitWidth, nameOrder, nameSortKey, useListQuery } from './useListQuery'

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

describe('nameOrder', () => {
  const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true })
  const sortByName = (names: string[], dir: 1 | -1) => nameOrder(names, dir).map((i) => names[i] as string)

  it('orders simple names exactly as the collator does, both ways', () => {
    const words = ['Audit', 'billing', 'Helper', 'scout', 'SALES']
    const names = Array.from({ length: 3000 }, (_, i) => `${words[i % 5]} agent ${(i * 7919) % 1200}`)
    names.push('agent 9', 'agent 10', 'Agent 010', 'agent', 'agent 9 b', '12345678901234 x', '')
    for (const dir of [1, -1] as const) {
      const expected = [...names].sort((a, b) => dir * collator.compare(a, b))
      const got = sortByName(names, dir)
      // Equal names (for the collator) may come in either order; compare what the collator sees.
      expect(got.map((n, i) => collator.compare(n, expected[i] as string))).toEqual(got.map(() => 0))
    }
  })

  it('keys a name as padding each number with a regular expression does, and refuses what is not simple', () => {
    const SIMPLE = /^[a-z0-9 ]*$/
    const byRegex = (k: string) =>
      SIMPLE.test(k) && !/\d{17}/.test(k) ? k.replace(/\d+/g, (d) => d.padStart(16, '0')) : null
    const chars = fc.constantFrom(...'ab z 0 9 1 X - é _'.split(''), '\u00e9', '\ud800')
    fc.assert(
      fc.property(fc.array(fc.oneof(chars, fc.stringMatching(/^\d{1,20}$/)), { maxLength: 12 }), (parts) => {
        const key = parts.join('')
        expect(nameSortKey(key)).toBe(byRegex(key))
      }),
      { numRuns: 2000 }
    )
    expect(nameSortKey('agent 9')).toBe('agent 0000000000000009')
    expect(nameSortKey('x'.repeat(3) + '1'.repeat(17))).toBeNull()
  })

  it('pads to the longest number of the names compared: the same order as 16 digits, and no new key where none is needed', () => {
    const SIMPLE = /^[a-z0-9 ]*$/
    const longest = (k: string) => Math.max(0, ...(k.match(/\d+/g) ?? []).map((d) => d.length))
    // Numbers of up to 16 digits (eight parts of at most two).
    const simple = fc.array(fc.oneof(fc.constantFrom('a', 'b', ' ', 'z'), fc.stringMatching(/^\d{1,2}$/)), {
      maxLength: 8
    })
    fc.assert(
      fc.property(
        fc.array(
          simple.map((p) => p.join('')),
          { maxLength: 30 }
        ),
        (keys) => {
          const width = Math.max(0, ...keys.map(digitWidth))
          expect(keys.map(digitWidth)).toEqual(keys.map(longest))
          const order = (w: number) =>
            keys
              .map((k) => nameSortKey(k, w) as string)
              .map((k, i) => ({ k, i }))
              .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.i - b.i))
              .map((x) => x.i)
          expect(order(width)).toEqual(order(16))
          for (const k of keys)
            if ((k.match(/\d+/g) ?? []).every((d) => d.length === width))
              expect(nameSortKey(k, width)).toBe(k)
            else expect(nameSortKey(k, width)).not.toBe(k)
        }
      ),
      { numRuns: 1000 }
    )
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.stringMatching(/^\d{1,20}$/), (text, digits) => {
        const k = (text + digits).toLowerCase()
        expect(digitWidth(k)).toBe(SIMPLE.test(k) && longest(k) <= 16 ? longest(k) : -1)
      }),
      { numRuns: 1000 }
    )
    expect(nameSortKey('agent 9 x 12345', 5)).toBe('agent 00009 x 12345')
    expect(nameSortKey('agent 123456', 5)).toBeNull()
  })

  it('falls back to the collator for any other name', () => {
    const names = ['Émile', 'eve', 'zoe', 'ada-2', 'ada-10', 'Ångström', 'a_b', 'a1b']
    const expected = [...names].sort((a, b) => collator.compare(a, b))
    expect(sortByName(names, 1)).toEqual(expected)
  })
})
