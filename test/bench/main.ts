/**
 * Main-side list benchmark (`node --import tsx test/bench/main.ts`).
 *
 * A user with 10,000 agents is seeded through the embedded service's API (service in a child
 * process). The app core (`createCore`) signs in to it as a remote profile; then, in the same
 * run and interleaved, we time:
 * - `core.invoke('agents.list')`: fetch + tolerant zod validation + cache write (+ IPC sanitising);
 * - a raw `fetch` + `JSON.parse` of the same endpoint (the reference).
 * Medians of several runs; target ratio ≤ 2.0. Also reported: the parts of the core path
 * (tolerant parse of the parsed body, cache putList, API client list) and the cache-only read.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent } from '../../src/shared/agent'
import { createApiClient, memoryCapabilityStore } from '../../src/main/api/client'
import { createCore } from '../../src/main/core'
import { memoryKeychain } from '../../src/main/keychain'
import { openOfflineStore } from '../../src/main/offline/index'
import { closeSeedConnections, seedAccount, startBenchService } from './seed'
import { runAsScript, type BenchRow } from './types'

export interface MainBenchOptions {
  /** Agents in the list. Default 10,000. */
  agents?: number
  /** Timed runs per figure (median reported). Default 7. */
  runs?: number
}

const TARGET_RATIO = 2.0

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] ?? NaN
}

async function time<T>(fn: () => Promise<T> | T): Promise<[number, T]> {
  const t0 = performance.now()
  const v = await fn()
  return [performance.now() - t0, v]
}

export async function runMainBench(options: MainBenchOptions = {}): Promise<BenchRow[]> {
  const count = options.agents ?? 10_000
  const runs = options.runs ?? 7
  const service = await startBenchService()
  const userDataDir = mkdtempSync(join(tmpdir(), 'agent-desk-bench-main-'))
  const core = createCore({
    userDataDir,
    keychain: memoryKeychain(),
    mode: 'harness',
    version: '0.0.0-bench',
    openExternal: async () => undefined,
    fetchTimeoutMs: 60_000,
    log: () => {}
  })
  try {
    const seed = await seedAccount(service.url, { agents: count })
    const call = async <T>(channel: string, input: unknown): Promise<T> => {
      const r = await core.invoke(channel, input)
      if (!r.ok) throw new Error(`${channel}: ${r.error.message}`)
      return r.value as T
    }
    const profile = await call<{ id: string }>('profiles.save', { name: 'Bench', baseUrl: service.url })
    await call('session.signIn', { profileId: profile.id, email: seed.email, password: seed.password })

    const endpoint = `${service.url}/api/v1/agents`
    const headers = { Authorization: `Bearer ${seed.token}` }
    const raw = async (): Promise<unknown[]> => {
      const res = await fetch(endpoint, { headers })
      const body = JSON.parse(await res.text()) as { data: unknown[] }
      return body.data
    }
    const viaCore = () => call<{ data: unknown[]; source: string }>('agents.list', {})

    // Warm-up: the first list fills the cache (new items); later ones merge onto it, as at every app start.
    const first = await time(viaCore)
    const firstRaw = await time(raw)
    if (first[1].data.length !== count || firstRaw[1].length !== count) {
      throw new Error(`expected ${count} agents, core ${first[1].data.length}, raw ${firstRaw[1].length}`)
    }
    const rawTimes: number[] = []
    const coreTimes: number[] = []
    for (let r = 0; r < runs; r++) {
      rawTimes.push((await time(raw))[0])
      const [ms, v] = await time(viaCore)
      if (v.source !== 'network') throw new Error('agents.list did not come from the network')
      coreTimes.push(ms)
    }
    const cacheOnly: number[] = []
    for (let r = 0; r < runs; r++)
      cacheOnly.push((await time(() => call('agents.list', { cacheOnly: true })))[0])

    // Parts of the core path, on the same data.
    const body = await raw()
    const parse: number[] = []
    for (let r = 0; r < runs; r++) {
      parse.push(
        (
          await time(() => {
            let ok = 0
            for (const item of body) if (Agent.safeParse(item).success) ok++
            return ok
          })
        )[0]
      )
    }
    const client = createApiClient({
      baseUrl: service.url,
      getToken: () => seed.token,
      capabilities: memoryCapabilityStore(),
      timeoutMs: 60_000
    })
    const clientTimes: number[] = []
    let parsed: Agent[] = []
    for (let r = 0; r < runs; r++) {
      const [ms, v] = await time(() => client.agents.list())
      clientTimes.push(ms)
      parsed = v
    }
    const storeDir = mkdtempSync(join(tmpdir(), 'agent-desk-bench-main-store-'))
    const store = openOfflineStore(join(storeDir, 'bench.sqlite'))
    const putNew = (
      await time(() => store.cache.putList('agents', 'all', parsed, new Date().toISOString()))
    )[0]
    const putAgain: number[] = []
    for (let r = 0; r < runs; r++)
      putAgain.push(
        (await time(() => store.cache.putList('agents', 'all', parsed, new Date().toISOString())))[0]
      )
    store.close()
    rmSync(storeDir, { recursive: true, force: true })

    const rawMed = median(rawTimes)
    const coreMed = median(coreTimes)
    const bytes = Buffer.byteLength(JSON.stringify({ success: true, data: body }))
    return [
      {
        name: `main GET /agents of ${count} (fetch + validation + cache)`,
        value: coreMed,
        unit: 'ms',
        reference: rawMed,
        ratio: coreMed / rawMed,
        note: `target ratio ≤ ${TARGET_RATIO.toFixed(1)}; median of ${runs}; runs ${coreTimes.map((x) => x.toFixed(0)).join('/')}`
      },
      {
        name: '  reference: raw fetch + JSON.parse, same endpoint',
        value: rawMed,
        unit: 'ms',
        note: `${(bytes / 1e6).toFixed(1)} MB; runs ${rawTimes.map((x) => x.toFixed(0)).join('/')}`
      },
      { name: '  first list of the session (empty cache)', value: first[0], unit: 'ms' },
      {
        name: '  API client list (fetch + tolerant parse)',
        value: median(clientTimes),
        unit: 'ms',
        reference: rawMed,
        ratio: median(clientTimes) / rawMed
      },
      { name: `  tolerant zod parse of ${count} agents`, value: median(parse), unit: 'ms' },
      { name: `  cache putList of ${count} agents (new)`, value: putNew, unit: 'ms' },
      { name: `  cache putList of ${count} agents (again)`, value: median(putAgain), unit: 'ms' },
      { name: `main agents.list cacheOnly of ${count}`, value: median(cacheOnly), unit: 'ms' },
      { name: `seeding ${count} agents through the API`, value: seed.ms / 1000, unit: 's' }
    ]
  } finally {
    await core.dispose()
    closeSeedConnections()
    await service.stop()
    rmSync(userDataDir, { recursive: true, force: true })
  }
}

runAsScript(import.meta.url, 'Main process: list of agents through the core', () => runMainBench())
