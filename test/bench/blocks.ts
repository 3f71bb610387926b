/**
 * The longest block of this process's event loop while `fn` runs, and the longest pause of the
 * garbage collector meanwhile: so a block figure says how much of it the collector may have been
 * (a pause within a block is at most that block's share), run by run.
 */
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export interface Blocked {
  /** The longest time the event loop was blocked, ms. */
  block: number
  /** The longest collection (a `gc` performance entry) meanwhile, ms; 0 when none ran. */
  gc: number
}

/**
 * Runs `fn` and returns what it blocked (above) with its value. The histogram records a delay at
 * its timer's next tick after it, and nothing at its first tick: so it gets ticks before `fn`
 * starts and after it ends, else a block in `fn`'s first or last synchronous part (e.g. the cache
 * write that ends a list) goes unseen.
 */
export async function longestBlock<T>(fn: () => Promise<T>): Promise<[Blocked, T]> {
  const h = monitorEventLoopDelay({ resolution: 1 })
  let gc = 0
  const seen = (entries: PerformanceEntry[]) => {
    for (const e of entries) gc = Math.max(gc, e.duration)
  }
  const observer = new PerformanceObserver((list) => seen(list.getEntries()))
  observer.observe({ entryTypes: ['gc'] })
  h.enable()
  try {
    await sleep(5)
    const v = await fn()
    await sleep(5)
    seen(observer.takeRecords())
    return [{ block: h.max / 1e6, gc }, v]
  } finally {
    h.disable()
    observer.disconnect()
  }
}

/** The larger of two. */
export function worse(a: Blocked, b: Blocked): Blocked {
  return { block: Math.max(a.block, b.block), gc: Math.max(a.gc, b.gc) }
}
