import { afterEach, describe, expect, it } from 'vitest'
import type { IpcReply } from '../../src/shared/ipc'
import { electronCalls, type PageCalls } from './electronCalls'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

let page: PageCalls | null = null
afterEach(async () => {
  await page?.close()
  page = null
})

describe('electronCalls', () => {
  it('times a call as the page took it: the wait for main counted, the message that ends it not', async () => {
    // The core answers 30 ms after it is asked; then main is busy for 40 ms (its own work, as a
    // bench's would be), while the page's result waits to be read.
    page = electronCalls({
      invoke: async (channel: string): Promise<IpcReply<unknown>> => {
        await sleep(30)
        // Right after the reply is sent (the job that sends it is queued when this returns, after
        // the first of these and before the second), main is busy.
        queueMicrotask(() =>
          queueMicrotask(() => {
            const until = performance.now() + 40
            while (performance.now() < until);
          })
        )
        return { ok: true, value: { data: [1, 2, 3], source: channel } }
      }
    })
    await page.call('agents.list', {}) // the page's thread has started
    const t0 = performance.now()
    const { value, ms } = await page.timed<{ data: { length: number }; source: string }>('agents.list', {})
    const onMain = performance.now() - t0
    expect(value).toEqual({ data: { length: 3 }, source: 'agents.list' })
    expect(ms).toBeGreaterThanOrEqual(29)
    // Timed on main the call holds main's 40 ms; as the page took it, it does not.
    expect(onMain).toBeGreaterThanOrEqual(69)
    expect(ms).toBeLessThan(onMain - 35)
  })

  it('a failed call rejects, naming its channel', async () => {
    page = electronCalls({
      invoke: async (): Promise<IpcReply<unknown>> => ({
        ok: false,
        error: { kind: 'internal', message: 'it broke' }
      })
    })
    await expect(page.timed('agents.list', {})).rejects.toThrow('agents.list: it broke')
  })
})
