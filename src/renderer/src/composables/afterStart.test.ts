// @vitest-environment happy-dom
/**
 * The gate of what loads after the first paint (toasts and dialogs, the filters' select): opens
 * after the frame that shows the first list, at once when something needs it, and by itself on a
 * screen without a list.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'

async function fresh() {
  vi.resetModules()
  return import('./afterStart')
}

async function isOpen(p: Promise<void>): Promise<boolean> {
  let open = false
  void p.then(() => (open = true))
  for (let i = 0; i < 5; i++) await Promise.resolve()
  return open
}

afterEach(() => {
  vi.useRealTimers()
})

describe('afterStart', () => {
  it('stays shut during the start, and opens after the frame that shows the first list', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'requestAnimationFrame'] })
    const gate = await fresh()
    expect(await isOpen(gate.afterStart())).toBe(false)
    gate.listShown()
    expect(await isOpen(gate.afterStart())).toBe(false) // not before the frame is drawn
    await vi.advanceTimersByTimeAsync(50)
    expect(await isOpen(gate.afterStart())).toBe(true)
  })

  it('opens at once when something needs it (an error toast during the start)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'requestAnimationFrame'] })
    const gate = await fresh()
    gate.needNow()
    expect(await isOpen(gate.afterStart())).toBe(true)
  })

  it('opens by itself on a screen without a list (the sign-in screen)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'requestAnimationFrame'] })
    const gate = await fresh()
    await vi.advanceTimersByTimeAsync(1000)
    expect(await isOpen(gate.afterStart())).toBe(false)
    await vi.advanceTimersByTimeAsync(600)
    expect(await isOpen(gate.afterStart())).toBe(true)
  })

  it('the feedback host is asked for as soon as a toast is wanted', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'requestAnimationFrame'] })
    vi.resetModules()
    const gate = await import('./afterStart')
    const { feedback } = await import('./feedback')
    void feedback()
    expect(await isOpen(gate.afterStart())).toBe(true)
  })

  it('afterNextPaint runs after the next frame, not before', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'requestAnimationFrame'] })
    const { afterNextPaint } = await fresh()
    const order: string[] = []
    afterNextPaint(() => order.push('after'))
    requestAnimationFrame(() => order.push('frame'))
    await Promise.resolve()
    expect(order).toEqual([])
    await vi.advanceTimersByTimeAsync(50)
    expect(order).toEqual(['frame', 'after'])
  })
})
