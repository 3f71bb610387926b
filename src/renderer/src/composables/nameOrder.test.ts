import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { digitWidth, nameOrder, nameSortKey } from './nameOrder'

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
