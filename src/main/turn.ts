/**
 * The event loop free for a turn (an immediate): main's long work (a list's validation, planning
 * and writing, masking, a piece of an answer) awaits this between its steps, so that what else
 * waits (an IPC message, a timer, a page that arrived) runs in between.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/** How long main's long work runs before it gives the event loop a turn (`turnEvery`). */
export const STEP_MS = 8

/**
 * A `nextTurn` for work in many short steps: awaited after each step, it gives the event loop a
 * turn only once `ms` have passed since the last turn it gave. A step of the reading of a long
 * answer is well under a millisecond: a turn after each one left the reading behind the bytes as
 * they came (a 64-kB step a turn, while 256 kB came in one: 2026-11-29), and its overhead paid a
 * hundred times a list.
 */
export function turnEvery(ms = STEP_MS): () => Promise<void> {
  let since = performance.now()
  return async () => {
    if (performance.now() - since < ms) return
    await nextTurn()
    since = performance.now()
  }
}
