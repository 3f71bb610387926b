import { describe, expect, it } from 'vitest'
import { JsonObject, StrictId } from './common'
import { JSON_MAX_DEPTH, jsonProblem } from './json'

describe('free-form JSON values and ids are plain, bounded data', () => {
  it('accepts plain JSON within the limits', () => {
    expect(jsonProblem({ a: [1, 'x', null, true, { b: {} }], c: undefined })).toBeNull()
    let nested: unknown = 1
    for (let i = 0; i < JSON_MAX_DEPTH - 1; i++) nested = { nested }
    expect(jsonProblem(nested)).toBeNull()
  })

  it('refuses what JSON.stringify throws on or cannot keep, without using the stack', () => {
    let deep: unknown = 1
    for (let i = 0; i < 50_000; i++) deep = [deep]
    expect(jsonProblem(deep)).toBe('Nested too deeply: at most 32 levels')
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(jsonProblem(cyclic)).toBe('Nested too deeply: at most 32 levels')
    for (const odd of [10n, new Map(), new Date(0), NaN, () => 1, Symbol('s'), new Uint8Array(2)])
      expect(jsonProblem({ odd })).toMatch(/^Only JSON values/)
    expect(jsonProblem({ big: 'x'.repeat(300_000) })).toBe('Too large: at most 256 KiB')
  })

  it('JsonObject and StrictId turn those into validation issues', () => {
    expect(JsonObject.safeParse({ n: 1n }).success).toBe(false)
    expect(JsonObject.safeParse({ n: 1 }).success).toBe(true)
    expect(StrictId.safeParse('\ud800').success).toBe(false)
    expect(StrictId.safeParse('a\ud83d\ude00b').success).toBe(true)
  })
})
