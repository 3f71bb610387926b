/**
 * The longest block of this process's event loop while `fn` runs, and the longest pause of the
 * garbage collector meanwhile: so a block figure says how much of it the collector may have been
 * (a pause within a block is at most that block's share), run by run. On Linux also how the
 * longest gap between two ticks of a 1 ms timer was spent (/proc/thread-self/schedstat): on a
 * CPU, or runnable and waiting for one (these machines have two cores, shared with the service's
 * process or thread and the collector's threads), or neither: asleep in a system call (a file
 * write meeting the disk's queue, a wait for the collector's helpers) or stopped by the virtual
 * machine's host. A gap whose time was mostly not on a CPU is the machine's, not main's work.
 */
import { readFileSync } from 'node:fs'
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export interface Blocked {
  /** The longest time the event loop was blocked, ms. */
  block: number
  /** The longest collection (a `gc` performance entry) meanwhile, ms; 0 when none ran. */
  gc: number
  /**
   * The longest gap between two ticks of a 1 ms timer, and of it the time main's thread ran on a
   * CPU and the time it waited for one (ms). Absent where the kernel does not tell (not Linux).
   */
  gap?: { ms: number; ran: number; waited: number }
}

const SCHEDSTAT = '/proc/thread-self/schedstat'

/** Main thread's time on a CPU and waiting for one, ns (schedstat's first two fields); null off Linux. */
function cpuTimes(): [number, number] | null {
  try {
    const [ran, waited] = readFileSync(SCHEDSTAT, 'utf8').split(' ').map(Number)
    return ran === undefined || waited === undefined || Number.isNaN(ran) ? null : [ran, waited]
  } catch {
    return null
  }
}

/** Watches the gaps between a 1 ms timer's ticks; `stop` gives the longest and how it was spent. */
function watchGaps(): { stop(): Blocked['gap'] } {
  if (cpuTimes() === null) return { stop: () => undefined }
  let at = performance.now()
  let times = cpuTimes() as [number, number]
  let worst: NonNullable<Blocked['gap']> = { ms: 0, ran: 0, waited: 0 }
  const tick = () => {
    const now = performance.now()
    const t = cpuTimes() as [number, number]
    if (now - at > worst.ms)
      worst = { ms: now - at, ran: (t[0] - times[0]) / 1e6, waited: (t[1] - times[1]) / 1e6 }
    at = now
    times = t
  }
  const timer = setInterval(tick, 1)
  return {
    stop() {
      tick()
      clearInterval(timer)
      return worst
    }
  }
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
  const gaps = watchGaps()
  let stopped = false
  try {
    await sleep(5)
    const v = await fn()
    await sleep(5)
    seen(observer.takeRecords())
    const gap = gaps.stop()
    stopped = true
    return [{ block: h.max / 1e6, gc, ...(gap ? { gap } : {}) }, v]
  } finally {
    if (!stopped) gaps.stop()
    h.disable()
    observer.disconnect()
  }
}

/** The larger of two (the longer gap with its own split). */
export function worse(a: Blocked, b: Blocked): Blocked {
  const gap = !a.gap ? b.gap : !b.gap ? a.gap : a.gap.ms >= b.gap.ms ? a.gap : b.gap
  return { block: Math.max(a.block, b.block), gc: Math.max(a.gc, b.gc), ...(gap ? { gap } : {}) }
}

/** A block figure's note: the longest collection meanwhile, and how the longest gap was spent. */
export function blockNote(b: Blocked): string {
  const gc = `longest collection meanwhile ${b.gc.toFixed(0)} ms`
  if (!b.gap) return gc
  const { ms, ran, waited } = b.gap
  const asleep = Math.max(0, ms - ran - waited)
  return `${gc}; longest gap ${ms.toFixed(0)} ms: main on a CPU ${ran.toFixed(0)} ms, waiting for one ${waited.toFixed(0)} ms, neither ${asleep.toFixed(0)} ms`
}
