/**
 * The connectivity probe against a real server: its back-off, never sooner than a 503's
 * Retry-After, and Reconnect while the periodic probe is under way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startScriptedServer, type ScriptedServer } from '../../test/servers/scriptedServer'
import { createApiClient, memoryCapabilityStore } from './api/client'
import { ConnectivityMonitor } from './connectivity'

describe('the connectivity probe', () => {
  let s: ScriptedServer
  beforeAll(async () => {
    s = await startScriptedServer()
  })
  afterAll(() => s.close())

  /** A monitor whose probe lists the tools of `baseUrl` (no retries; `timeoutMs` if given). */
  function monitorOf(intervalMs: number, baseUrl: string, timeoutMs?: number): ConnectivityMonitor {
    const client = createApiClient({
      baseUrl,
      getToken: () => 'tok',
      capabilities: memoryCapabilityStore(),
      getRetries: 0,
      ...(timeoutMs !== undefined ? { timeoutMs } : {})
    })
    const monitor = new ConnectivityMonitor({
      intervalMs,
      random: () => 0.5,
      onChange: () => undefined,
      onOnline: () => undefined
    })
    monitor.reset(null, async () => {
      await client.tools.list()
    })
    return monitor
  }

  it('backs off exponentially, never sooner than Retry-After, and says when it tries again', async () => {
    const monitor = monitorOf(1000, s.url)
    // Nothing listening: probed at the base rate (nobody is loaded by a refused connection).
    const refused = monitorOf(1000, 'http://127.0.0.1:9')
    await refused.probeNow()
    await refused.probeNow()
    expect(refused.get().online).toBe(false)
    expect(refused.nextDelayMs()).toBe(1000)
    refused.stop()

    s.queue.push('destroy', 'destroy', 'destroy')
    await monitor.probeNow()
    expect(monitor.nextDelayMs()).toBe(1000)
    await monitor.probeNow()
    expect(monitor.nextDelayMs()).toBe(2000)
    await monitor.probeNow()
    expect(monitor.nextDelayMs()).toBe(4000)

    s.queue.push({ status: 503, headers: { 'Retry-After': '20' }, body: '' })
    await monitor.probeNow()
    expect(monitor.get().online).toBe(false)
    expect(monitor.nextDelayMs()).toBe(20_000)
    expect(monitor.get().lastError).toMatch(/try again in 20 s/)

    s.queue.push(s.json(200, { success: true, data: [] }))
    expect((await monitor.probeNow()).online).toBe(true)
    expect(monitor.nextDelayMs()).toBe(1000)
    monitor.stop()
  })

  it('on Reconnect during the periodic probe, waits for it and probes again when it did not reach the server', async () => {
    const monitor = monitorOf(20, s.url, 400)
    try {
      // The server went away; the periodic probe is sent and gets no answer (it times out).
      s.queue.push('hang')
      const before = s.requests.length
      monitor.markOffline('The server did not answer')
      const deadline = Date.now() + 5000
      while (s.requests.length === before && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 5))
      expect(s.requests.length).toBe(before + 1)

      // The server is back (it answers from now on) and the user asks to reconnect meanwhile.
      const state = await monitor.probeNow()
      expect(state.online).toBe(true)
      expect(s.requests.length).toBe(before + 2)
    } finally {
      monitor.stop()
    }
  })
})
