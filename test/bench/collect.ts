/**
 * A full garbage collection between runs (untimed), so a run does not pay for collecting what the
 * previous run or the floor left: each figure is the work of its own run, from a heap as an app
 * has it, not one the benchmark filled. Uses --expose-gc when given, else enables it at run time;
 * where neither works, runs include collection.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

export function gcBetweenRuns(): () => void {
  const g = (globalThis as { gc?: () => void }).gc
  if (g) return g
  try {
    setFlagsFromString('--expose-gc')
    const fn = runInNewContext('gc') as unknown
    if (typeof fn === 'function') return () => (fn as () => void)()
  } catch {
    // not available: runs include collection
  }
  return () => undefined
}
