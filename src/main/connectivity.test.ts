import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startScriptedServer, type ScriptedServer } from '../../test/servers/scriptedServer'
import { createApiClient, memoryCapabilityStore } from './api/client'
import { ConnectivityMonitor } from './connectivity'

describe('reconnecting while the periodic probe is under way', () => {
  let s: ScriptedServer
  beforeAll(async () => {
    s = await startScriptedServer()
  })
  afterAll(() => s.close())

  it('waits for that probe, and probes again when it did not reach the server', async () => {
    const client = createApiClient({
      baseUrl: s.url,
      getToken: () => 'tok',
      capabilities: memoryCapabilityStore(),
      getRetries: 0,
      timeoutMs: 400
    })
    const monitor = new ConnectivityMonitor({
      intervalMs: 20,
      random: () => 0.5,
      onChange: () => undefined,
      onOnline: () => undefined
    })
    monitor.reset(null, async () => {
      await client.tools.list()
    })
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
