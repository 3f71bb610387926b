/**
 * The rules for unclear write outcomes and for waiting: back-off, Retry-After, and the checks that
 * find a created item or an applied update. (The connectivity probe's back-off against a real
 * server: connectivity.test.ts.)
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { AppError } from '../../shared/errors'
import {
  backoffMs,
  findCreated,
  isThrottle,
  outcomeUnknown,
  patchApplied,
  throttleWaitMs
} from './writeRules'

describe('back-off', () => {
  it('doubles from the base, stays within the cap, with jitter of at most ±50 %', () => {
    fc.assert(
      fc.property(fc.nat(60), fc.double({ min: 0, max: 0.999, noNaN: true }), (n, r) => {
        const ms = backoffMs(n, { baseMs: 1000, capMs: 60_000, random: () => r })
        const raw = Math.min(60_000, 1000 * 2 ** n)
        return ms <= 60_000 && ms >= raw * 0.5 - 1 && ms <= raw * 1.5 + 1
      })
    )
    expect(backoffMs(3, { baseMs: 1000, random: () => 0.5 })).toBe(8000)
  })

  it('waits the larger of Retry-After and the back-off', () => {
    const e = new AppError({ kind: 'rate_limited', message: 'x', status: 429, retryAfter: 30 })
    expect(throttleWaitMs(e, 0, { random: () => 0.5 })).toBe(30_000)
    expect(throttleWaitMs(e, 6, { random: () => 0.5 })).toBe(64_000)
  })

  it('sorts failures: outcome unknown, throttled, certainly not sent', () => {
    expect(outcomeUnknown(new AppError({ kind: 'timeout', message: 'x' }))).toBe(true)
    expect(outcomeUnknown(new AppError({ kind: 'network', message: 'x', code: 'ECONNRESET' }))).toBe(true)
    expect(outcomeUnknown(new AppError({ kind: 'network', message: 'x', code: 'ECONNREFUSED' }))).toBe(false)
    expect(outcomeUnknown(new AppError({ kind: 'server', message: 'x', status: 502 }))).toBe(false)
    expect(isThrottle(new AppError({ kind: 'server', message: 'x', status: 503 }))).toBe(true)
    expect(isThrottle(new AppError({ kind: 'server', message: 'x', status: 500 }))).toBe(false)
  })
})

describe('finding out what an unclear write did', () => {
  const at = '2026-05-01T10:00:00.000Z'
  const item = (id: string, name: string, createdAt: string, type = 'SEARCH') => ({
    id,
    name,
    type,
    createdAt
  })

  it('finds the one item of that name and type created after the attempt, ignoring older same-named ones', () => {
    const items = [
      item('old', 'X', '2026-04-01T00:00:00.000Z'),
      item('known', 'X', '2026-05-01T09:59:59.000Z'),
      item('other-type', 'X', '2026-05-01T10:00:01.000Z', 'AGENT'),
      item('new', 'X', '2026-05-01T10:00:02.000+00:00')
    ]
    expect(
      findCreated(items, { name: 'X', type: 'SEARCH' }, { attemptedAt: at, knownIds: ['known'] })?.id
    ).toBe('new')
    // Two candidates: the user decides.
    const two = [...items, item('new2', 'X', '2026-05-01T10:00:03.000Z')]
    expect(
      findCreated(two, { name: 'X', type: 'SEARCH' }, { attemptedAt: at, knownIds: ['known'] })
    ).toBeNull()
    expect(findCreated(items, { name: 'Y' }, { attemptedAt: at })).toBeNull()
    expect(findCreated(items, { type: 'SEARCH' }, { attemptedAt: at })).toBeNull()
  })

  it('sees an update as applied only when every patched field has that value', () => {
    expect(patchApplied({ name: 'A', tags: [{ id: 't1', name: 'x' }] }, { name: 'A', tags: ['t1'] })).toBe(
      true
    )
    expect(patchApplied({ name: 'A', description: 'd' }, { name: 'A', description: 'e' })).toBe(false)
    expect(patchApplied({ name: 'A' }, {})).toBe(false)
  })
})
