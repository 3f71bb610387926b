/**
 * Reads that never overlap. `run()` while one runs is made once that one has ended, however many
 * were asked meanwhile (all get the same promise), so a burst of changes — 50 creates in a row, a
 * dozen links dropped — costs two reads, not 50 read at once, each a long list gathered in pieces,
 * their answers landing in any order. The queued read starts after every change so far.
 * `reset()` (another session) lets the next `run()` go at once, and the queued one is not made.
 */
export interface OneAtATime {
  run(): Promise<void>
  reset(): void
}

export function oneAtATime(read: () => Promise<void>): OneAtATime {
  /** The read running now, settled (it never rejects: what comes after runs either way). */
  let running: Promise<void> | null = null
  let queued: Promise<void> | null = null
  function run(): Promise<void> {
    if (queued) return queued
    if (running) {
      const next: Promise<void> = running.then(() => {
        if (queued !== next) return // reset meanwhile
        queued = null
        return run()
      })
      queued = next
      return next
    }
    const current = read()
    const settled = current.then(
      () => undefined,
      () => undefined
    )
    running = settled
    void settled.then(() => {
      if (running === settled) running = null
    })
    return current
  }
  return {
    run,
    reset() {
      running = null
      queued = null
    }
  }
}
