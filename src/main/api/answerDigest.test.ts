import { describe, expect, it } from 'vitest'
import { answerDigest, digestOf, markAnswer, pagesDigest } from './answerDigest'

describe('answer digests', () => {
  it('marks a value beside it, not in it', () => {
    const list = [{ id: 'a' }]
    const d = digestOf(Buffer.from('{"success":true,"data":[{"id":"a"}]}'))
    expect(markAnswer(list, d)).toBe(list)
    expect(answerDigest(list)).toBe(d)
    expect(Object.keys(list)).toEqual(['0'])
    expect(JSON.stringify(list)).toBe('[{"id":"a"}]')
    expect(answerDigest([{ id: 'a' }])).toBeUndefined()
    expect(answerDigest(markAnswer([], undefined))).toBeUndefined()
    expect(answerDigest(null)).toBeUndefined()
  })

  it('gives the pages of a list one digest: in order, never one of its pages', () => {
    const [a, b] = ['page one', 'page two'].map((p) => digestOf(Buffer.from(p))) as [string, string]
    expect(digestOf(Buffer.from('page one'))).toBe(a)
    expect(pagesDigest([a, b])).toBe(pagesDigest([a, b]))
    expect(pagesDigest([a, b])).not.toBe(pagesDigest([b, a]))
    expect(pagesDigest([a])).not.toBe(a)
    // A page without a digest (a masked answer) leaves the list without one.
    expect(pagesDigest([a, undefined])).toBeUndefined()
  })
})
