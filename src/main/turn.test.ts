import { describe, expect, it } from 'vitest'
import { turnEvery } from './turn'

/** Whether an immediate queued before `step()` ran before it resolved (a turn was given). */
async function gaveTurn(step: () => Promise<void>): Promise<boolean> {
  let ran = false
  const queued = new Promise<void>((resolve) =>
    setImmediate(() => {
      ran = true
      resolve()
    })
  )
  await step()
  const gave = ran
  await queued
  return gave
}

const busy = (ms: number) => {
  const until = performance.now() + ms
  while (performance.now() < until) {
    // work of `ms` milliseconds
  }
}

describe('turnEvery', () => {
  it('gives the event loop a turn only once `ms` of work have passed since the last one', async () => {
    const step = turnEvery(30)
    expect(await gaveTurn(step)).toBe(false) // steps of little work: no turn
    busy(5)
    expect(await gaveTurn(step)).toBe(false)
    busy(30)
    expect(await gaveTurn(step)).toBe(true)
    expect(await gaveTurn(step)).toBe(false) // counted again from that turn
    busy(31)
    expect(await gaveTurn(step)).toBe(true)
  })

  it('with 0 ms gives a turn after every step', async () => {
    const step = turnEvery(0)
    for (let i = 0; i < 3; i++) expect(await gaveTurn(step)).toBe(true)
  })
})
