import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { charMask, foldQuery, foldText, fuzzyScore, joinTexts, rank, rankIndex, textsAt } from './fuzzy'

type Item = readonly [text: string, detail?: string | null]
const indexOf = (items: readonly Item[]) =>
  rankIndex(joinTexts(items.map(([t]) => t)), joinTexts(items.map(([, d]) => d)))
const names = (query: string, texts: (string | Item)[], limit?: number) => {
  const index = indexOf(texts.map((t) => (typeof t === 'string' ? [t] : t)))
  return rank(query, index, limit).map((r) => textsAt(index, r.index).text)
}

describe('fuzzyScore', () => {
  it('matches characters in order, case-insensitively, and nothing else', () => {
    expect(fuzzyScore('sbt', 'support bot')).not.toBeNull()
    expect(fuzzyScore('tbs', 'support bot')).toBeNull()
    expect(fuzzyScore('xyz', 'support bot')).toBeNull()
    expect(fuzzyScore('support bot!', 'support bot')).toBeNull()
    expect(fuzzyScore('', 'anything')).toBe(0)
  })

  it('any subsequence matches (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (s, picks) => {
          const text = foldText(s)
          const idx = [...new Set(picks.map((p) => p % text.length))].sort((a, b) => a - b)
          const q = idx.map((i) => text[i]).join('')
          return fuzzyScore(q, text, s) !== null
        }
      )
    )
  })
})

describe('rank', () => {
  it('puts prefixes first, then word starts, then scattered letters; shorter names win ties', () => {
    const texts = ['Database helper', 'Handbook (draft)', 'The handbook', 'Handbook', 'h-a-n-d-b-o-o-k']
    expect(names('handbook', texts)).toEqual([
      'Handbook',
      'Handbook (draft)',
      'The handbook',
      'h-a-n-d-b-o-o-k'
    ])
    expect(names('dh', ['Bad hat', 'Document handbook', 'dh'])[0]).toBe('dh')
    expect(names('dh', ['Bad hat', 'Document handbook'])).toEqual(['Document handbook', 'Bad hat'])
  })

  it('sees camelCase word starts', () => {
    expect(names('ws', ['Awesome', 'webSearch'])).toEqual(['webSearch', 'Awesome'])
  })

  it('counts a description only as a clear match, below every name match', () => {
    const texts: Item[] = [['Calculator', 'finds pages on the web'], ['Web pages'], ['Crawler', 'Pages']]
    expect(names('pages', texts)).toEqual(['Web pages', 'Crawler', 'Calculator'])
    expect(names('fpw', texts)).toEqual([])
  })

  it('keeps the best `limit` in order, ties in input order; an empty query lists the first ones', () => {
    const many = Array.from({ length: 500 }, (_, i) => `Agent ${i}`)
    expect(names('agent 49', many, 3)).toEqual(['Agent 49', 'Agent 490', 'Agent 491'])
    expect(names('   ', many, 2)).toEqual(['Agent 0', 'Agent 1'])
    expect(foldQuery(' Ag ent ')).toBe('agent')
  })

  it('ranks the texts in one string as `fuzzyScore` scores each text on its own (property)', () => {
    // Each text scored on its own, the best `limit` kept (ties in the texts' order): what an index
    // of the texts one after another, folded at once and ruled out by masks, must answer.
    const byText = (query: string, items: readonly Item[], limit: number) => {
      const q = foldQuery(query)
      const scored = items.flatMap(([text, detail], i) => {
        let score = fuzzyScore(q, foldText(text), text)
        const foldedDetail = foldText(detail ?? '')
        if (score === null && detail && foldedDetail.includes(q))
          score = (fuzzyScore(q, foldedDetail, detail) ?? 0) - 30000
        return score === null ? [] : [{ i, score }]
      })
      scored.sort((a, b) => b.score - a.score || a.i - b.i)
      return scored.slice(0, limit).map(({ i, score }) => [i, score])
    }
    // Folding that lengthens a text (İ) or depends on what follows (Σ), other characters that
    // fold (K, the Kelvin sign), word starts, camelCase, digits, and a query across two texts.
    const alphabet = fc.constantFrom(...'abcxyzAB0127 -_.:/(İΣσςK\u212aéß😀'.split(''))
    const text = fc.array(alphabet, { maxLength: 10 }).map((cs) => cs.join(''))
    fc.assert(
      fc.property(
        fc.array(fc.tuple(text, fc.option(text)), { minLength: 1, maxLength: 30 }),
        fc.array(
          fc.array(alphabet, { minLength: 1, maxLength: 4 }).map((cs) => cs.join('')),
          { minLength: 1, maxLength: 5 }
        ),
        fc.integer({ min: 1, max: 12 }),
        (items, queries, limit) => {
          const index = indexOf(items)
          for (const query of queries) {
            if (!foldQuery(query)) continue
            expect(rank(query, index, limit).map((r) => [r.index, r.score])).toEqual(
              byText(query, items, limit)
            )
          }
          items.forEach(([t, d], i) => expect(textsAt(index, i)).toEqual({ text: t, detail: d || null }))
        }
      ),
      { numRuns: 3000 }
    )
  })

  it('refuses texts whose lengths do not add up, or names and details that differ in number', () => {
    expect(() => rankIndex({ all: 'abc', lengths: [1, 1] })).toThrow(/add up/)
    expect(() => rankIndex(joinTexts(['a', 'b']), joinTexts(['x']))).toThrow(/number/)
  })

  it('rules a text out by its mask only when it lacks a letter or digit of the query', () => {
    expect(charMask('ab') & ~charMask('abc')).toBe(0)
    expect(charMask('abd') & ~charMask('abc')).not.toBe(0)
    expect(charMask('7') & ~charMask('agent 1')).toBe(0) // 7 and 1 share a bit: read, not ruled out
    expect(charMask('9') & ~charMask('agent 1')).not.toBe(0)
    expect(charMask('é-ß 😀')).toBe(0) // other characters never rule anything out
  })
})
