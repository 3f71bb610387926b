/**
 * What the cache remembers of a list's answer (answers.ts): the texts it answered are kept within
 * STORED_TEXTS, the lists remembered longest ago letting theirs go first; their digests, and where
 * their pages were stored, stay.
 */
import { describe, expect, it } from 'vitest'
import { AnswerMemory, STORED_TEXTS, type StoredAnswer } from './answers'

const connection = {}
/** An answer of one page whose texts hold `chars` characters in all. */
const answer = (chars: number): StoredAnswer => ({
  ids: ['a'],
  texts: [`{"id":"a","name":"${'x'.repeat(chars - 20)}"}`],
  pages: [{ end: 1, last: 0 }],
  connection,
  version: 1
})

describe('the answers a cache remembers', () => {
  it('keeps the texts of lists within STORED_TEXTS, letting the longest-kept go first, and their digests and pages always', () => {
    const memory = AnswerMemory.join('memory', 'none')
    const third = Math.floor(STORED_TEXTS / 3)
    memory.remember('agents', 'all', ['a'], 0, answer(third))
    memory.remember('tools', 'all', ['t'], 0, answer(third))
    memory.remember('documents', 'all', ['d'], 0, answer(third))
    const kept = (['agents', 'tools', 'documents'] as const).map(
      (r) => memory.get(r, 'all')?.stored !== undefined
    )
    expect(kept).toEqual([true, true, true])
    // A fourth passes the bound: the agents' texts go (remembered first), their digest stays.
    memory.remember('prompts', 'all', ['p'], 0, answer(third))
    expect(memory.get('agents', 'all')?.stored).toBeUndefined()
    expect(memory.get('agents', 'all')?.digests).toEqual(['a'])
    expect(memory.get('agents', 'all')?.placed?.pages).toEqual([{ end: 1, last: 0 }]) // rows then read
    expect(memory.get('tools', 'all')?.stored).toBeDefined()
    expect(memory.get('prompts', 'all')?.stored).toBeDefined()
    // Remembered again, a list is the latest kept: the tools' texts go next, not the documents'.
    memory.remember('documents', 'all', ['d2'], 0, answer(third))
    memory.remember('agents', 'all', ['a2'], 0, answer(third))
    expect(memory.get('tools', 'all')?.stored).toBeUndefined()
    expect(memory.get('documents', 'all')?.digests).toEqual(['d2'])
    expect(memory.get('documents', 'all')?.stored).toBeDefined()
    // Texts longer than the bound are not kept at all; a write since the read remembers nothing.
    memory.remember('tags', 'all', ['g'], 0, answer(STORED_TEXTS + 1))
    expect(memory.get('tags', 'all')?.stored).toBeUndefined()
    expect(memory.get('tags', 'all')?.digests).toEqual(['g'])
    expect(memory.get('tags', 'all')?.placed).toMatchObject({ connection, version: 1 })
    memory.touched('tags')
    memory.remember('tags', 'all', ['g'], 0, answer(40))
    expect(memory.get('tags', 'all')).toBeUndefined()
    memory.release()
  })
})
