import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { charMask, foldQuery, foldText, fuzzyScore, rank, rankable, type Rankable } from './fuzzy'

const item = (text: string, detail?: string): Rankable => ({
  text,
  folded: foldText(text),
  ...(detail ? { detail, foldedDetail: foldText(detail) } : {})
})
const names = (query: string, texts: (string | Rankable)[], limit?: number) =>
  rank(
    query,
    texts.map((t) => (typeof t === 'string' ? item(t) : t)),
    limit
  ).map((r) => r.item.text)

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
    const texts = [item('Calculator', 'finds pages on the web'), item('Web pages'), item('Crawler', 'Pages')]
    expect(names('pages', texts)).toEqual(['Web pages', 'Crawler', 'Calculator'])
    expect(names('fpw', texts)).toEqual([])
  })

  it('keeps the best `limit` in order, ties in input order; an empty query lists the first ones', () => {
    const many = Array.from({ length: 500 }, (_, i) => `Agent ${i}`)
    expect(names('agent 49', many, 3)).toEqual(['Agent 49', 'Agent 490', 'Agent 491'])
    expect(names('   ', many, 2)).toEqual(['Agent 0', 'Agent 1'])
    expect(foldQuery(' Ag ent ')).toBe('agent')
  })

  it('ranks alike with and without the character masks: a mask never rules out a match (property)', () => {
    const alphabet = fc.constantFrom(...'abcxyzABC0123456789 -_.İK\u212aéß😀'.split(''))
    const text = fc.array(alphabet, { maxLength: 16 }).map((cs) => cs.join(''))
    fc.assert(
      fc.property(
        fc.array(fc.tuple(text, fc.option(text)), { minLength: 1, maxLength: 40 }),
        fc.oneof(
          text,
          fc.array(alphabet, { maxLength: 3 }).map((cs) => cs.join(''))
        ),
        (entries, query) => {
          const masked = entries.map(([t, d]) => rankable(t, d))
          const plain = masked.map(({ mask: _m, detailMask: _d, ...rest }) => rest)
          expect(plain.every((p) => !('mask' in p))).toBe(true)
          const order = (items: Rankable[]) => rank(query, items, 10).map((r) => [r.item.text, r.score])
          expect(order(masked)).toEqual(order(plain))
        }
      ),
      { numRuns: 2000 }
    )
  })

  it('rules a text out by its mask only when it lacks a letter or digit of the query', () => {
    expect(charMask('ab') & ~charMask('abc')).toBe(0)
    expect(charMask('abd') & ~charMask('abc')).not.toBe(0)
    expect(charMask('7') & ~charMask('agent 1')).toBe(0) // 7 and 1 share a bit: read, not ruled out
    expect(charMask('9') & ~charMask('agent 1')).not.toBe(0)
    expect(charMask('é-ß 😀')).toBe(0) // other characters never rule anything out
  })
})
