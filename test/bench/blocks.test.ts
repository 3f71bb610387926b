import { runInNewContext } from 'node:vm'
import { setFlagsFromString } from 'node:v8'
import { describe, expect, it } from 'vitest'
import { existsSync } from 'node:fs'
import { blockNote, longestBlock, worse } from './blocks'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const busy = (ms: number) => {
  const end = performance.now() + ms
  while (performance.now() < end);
}

describe('longestBlock', () => {
  it('sees a block in the first and in the last synchronous part of the call', async () => {
    const [first, v] = await longestBlock(async () => {
      busy(60)
      return 'done'
    })
    expect(v).toBe('done')
    expect(first.block).toBeGreaterThanOrEqual(55)
    const [last] = await longestBlock(async () => {
      await new Promise((r) => setTimeout(r, 10))
      busy(60)
    })
    expect(last.block).toBeGreaterThanOrEqual(55)
  })

  it('reports the longest collection meanwhile', async () => {
    const [collected] = await longestBlock(async () => {
      const garbage = Array.from({ length: 200_000 }, (_, i) => ({ i, s: `item ${i}` }))
      expect(garbage.length).toBe(200_000)
      gc()
    })
    expect(collected.gc).toBeGreaterThan(0)
    expect(collected.gc).toBeLessThanOrEqual(collected.block + 1)
  })

  it('keeps the larger of each figure, and the longer gap with its own split', () => {
    expect(worse({ block: 40, gc: 5 }, { block: 30, gc: 20 })).toEqual({ block: 40, gc: 20 })
    const a = { block: 40, gc: 5, gap: { ms: 41, ran: 10, waited: 30 } }
    const b = { block: 30, gc: 20, gap: { ms: 31, ran: 30, waited: 0 } }
    expect(worse(a, b)).toEqual({ block: 40, gc: 20, gap: a.gap })
    expect(worse(b, { block: 1, gc: 0 })).toEqual(b)
    expect(blockNote(a)).toBe(
      'longest collection meanwhile 5 ms; longest gap 41 ms: main on a CPU 10 ms, waiting for one 30 ms, neither 1 ms'
    )
    expect(blockNote({ block: 3, gc: 0 })).toBe('longest collection meanwhile 0 ms')
  })

  // Where the kernel tells how a thread's time went (Linux: every machine these benches run on).
  it.runIf(existsSync('/proc/thread-self/schedstat'))(
    'tells a gap spent working (on a CPU or waiting for one) from a gap spent asleep',
    async () => {
      const [working] = await longestBlock(async () => busy(60))
      expect(working.gap?.ms).toBeGreaterThanOrEqual(55)
      const w = working.gap as NonNullable<typeof working.gap>
      expect(w.ran + w.waited).toBeGreaterThanOrEqual(w.ms * 0.8)
      const [asleep] = await longestBlock(async () => {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60)
      })
      const s = asleep.gap as NonNullable<typeof asleep.gap>
      expect(s.ms).toBeGreaterThanOrEqual(55)
      expect(s.ran + s.waited).toBeLessThan(s.ms / 2)
    }
  )
})
