import { runInNewContext } from 'node:vm'
import { setFlagsFromString } from 'node:v8'
import { describe, expect, it } from 'vitest'
import { longestBlock, worse } from './blocks'

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

  it('keeps the larger of each figure', () => {
    expect(worse({ block: 40, gc: 5 }, { block: 30, gc: 20 })).toEqual({ block: 40, gc: 20 })
  })
})
