import { describe, expect, it } from 'vitest'
import { formatTimestamp, TIMESTAMP_RE } from '../shared/common'
import { nowStamp } from './sql'

describe('nowStamp', () => {
  it('is the contract timestamp of now, strictly increasing, across milliseconds', async () => {
    const stamps: string[] = []
    const before = Date.now()
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 1500; i++) stamps.push(nowStamp())
      await new Promise((r) => setTimeout(r, 2))
    }
    const after = Date.now()
    for (const s of stamps) expect(s).toMatch(TIMESTAMP_RE)
    for (let i = 1; i < stamps.length; i++)
      expect((stamps[i] as string) > (stamps[i - 1] as string)).toBe(true)
    // Each one is the microsecond it says, to the millisecond it was made in (or just after, when
    // more than a thousand were made in one).
    const ms = (s: string) => Date.parse(s.slice(0, 23) + 'Z')
    expect(ms(stamps[0] as string)).toBeGreaterThanOrEqual(before)
    expect(ms(stamps.at(-1) as string)).toBeLessThanOrEqual(after + 5)
    expect(new Set(stamps.map((s) => s.slice(0, 23))).size).toBeGreaterThan(2)
    const first = stamps[0] as string
    expect(first).toBe(formatTimestamp(new Date(ms(first)), Number(first.slice(23, 26))))
  })
})
