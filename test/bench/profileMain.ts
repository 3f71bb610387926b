/**
 * Profiling aid for main's event loop during a long list (not part of `npm run bench`):
 *   node --import tsx test/bench/profileMain.ts [agents=100000] [--over MS=45] [--unpaged | --local]
 *     [--cached] [--top N]
 * Run it under a keychain session (`.ci/keyring.sh`'s `in_keyring_session`), as the bench does.
 *
 * Seeds an account on the embedded service (in a child process), signs the core in and lists the
 * agents three times: the first list (which fills the cache) and two reads again. For each it
 * prints how long it took and every block of the event loop longer than `--over` ms (a 1 ms timer
 * that did not fire), with what the CPU profile shows the process doing in it, by stack. A block
 * with no samples of main's own work was time the process did not get the CPU (the service child
 * and the garbage collector's threads share these 2 cores). This is how the first list of 100,000
 * agents was found to hold main for 5.9 s in one cache transaction (listWrite.ts now steps it).
 * With `--unpaged` the core lists through `test/servers/unpagedProxy.ts` (in the service's process):
 * a server without paging, each list one answer (~100 MB at 100,000 agents). `--top N` prints the N
 * stacks (top two frames) with the most samples over each whole list. With `--local` the core starts
 * the Local workspace (its service on a thread of main's process, as in the app) and lists from it.
 * With `--cached` the two reads again are the cache's list alone (`cacheOnly`: a start's first
 * paint, or offline; offline/listRead.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { tmpdir } from 'node:os'
import { parseArgs } from 'node:util'
import { join } from 'node:path'
import { createCore } from '../../src/main/core'
import { memoryKeychain } from '../../src/main/keychain'
import { type Profile, readProfile } from './cpuProfile'
import { electronCalls } from './electronCalls'
import { closeSeedConnections, seedAccount, startBenchService } from './seed'
import { builtServiceThread } from '../support/serviceThread'

const { values: flags, positionals } = parseArgs({
  options: {
    over: { type: 'string' },
    top: { type: 'string' },
    unpaged: { type: 'boolean' },
    local: { type: 'boolean' },
    cached: { type: 'boolean' }
  },
  allowPositionals: true
})
const over = Number(flags.over ?? 45)
const top = Number(flags.top ?? 0)
const count = Number(positionals[0] ?? 100_000)
const unpaged = flags.unpaged === true
const local = flags.local === true
const cached = flags.cached === true

/** Samples between `from` and `to` (ms since the profile started), by their top frames. */
function stacksIn(p: Profile, from: number, to: number, depth = 6): [string, number][] {
  const { samples, stack } = readProfile(p)
  const out = new Map<string, number>()
  for (const { node, at, ms } of samples) {
    if (at / 1000 < from || at / 1000 > to) continue
    const frames: string[] = []
    for (const n of stack(node)) {
      const { functionName, url, lineNumber } = n.callFrame
      if (functionName === '(root)') continue
      frames.push(
        `${functionName || '(anonymous)'}${url ? ` ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}` : ''}`
      )
      if (frames.length === depth) break
    }
    const key = frames.join(' < ')
    out.set(key, (out.get(key) ?? 0) + ms)
  }
  return [...out].sort((a, b) => b[1] - a[1])
}

const service = await startBenchService()
const dir = mkdtempSync(join(tmpdir(), 'agent-desk-profile-main-'))
const keychain = memoryKeychain()
const core = createCore({
  userDataDir: dir,
  keychain,
  mode: 'harness',
  version: '0.0.0-profile',
  serviceThread: builtServiceThread(),
  openExternal: async () => undefined,
  fetchTimeoutMs: 300_000,
  log: () => {}
})
// As the page calls in Electron: the page on its own thread, each reply serialised on main.
const page = electronCalls(core)
const call = page.call
const session = new Session()
try {
  if (local) {
    const state = await call<{ profile?: { baseUrl: string }; user?: { id: string } }>(
      'session.startLocal',
      {}
    )
    const token = await keychain.get('session:local')
    if (!state.profile || !state.user || !token) throw new Error('the Local workspace did not start')
    await seedAccount(state.profile.baseUrl, { agents: count, session: { token, userId: state.user.id } })
  } else {
    const baseUrl = unpaged ? service.unpagedUrl : service.url
    const profile = await call<{ id: string }>('profiles.save', { name: 'Profile', baseUrl })
    const seed = await seedAccount(service.url, { agents: count, email: `profile.${count}@example.com` })
    await call('session.signIn', { profileId: profile.id, email: seed.email, password: seed.password })
  }
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: 200 })
  const again = cached ? 'read again from the cache alone (cacheOnly)' : 'read again'
  for (const [i, label] of ['first list (cache filled)', again, again].entries()) {
    const ticks: number[] = []
    const timer = setInterval(() => ticks.push(performance.now()), 1)
    await session.post('Profiler.start')
    const t0 = performance.now()
    const listed = await call<{ data: unknown[] }>('agents.list', cached && i > 0 ? { cacheOnly: true } : {})
    const ms = performance.now() - t0
    const { profile: recorded } = (await session.post('Profiler.stop')) as unknown as { profile: Profile }
    clearInterval(timer)
    const blocks: [number, number][] = []
    for (let i = 1; i < ticks.length; i++) {
      const [a, b] = [ticks[i - 1] as number, ticks[i] as number]
      if (b - a > over) blocks.push([a - t0, b - t0])
    }
    console.log(
      `${label}: ${listed.data.length} agents in ${ms.toFixed(0)} ms; ${blocks.length} blocks over ${over} ms`
    )
    if (top > 0) {
      console.log(`  the list's ${top} busiest stacks (two frames):`)
      for (const [k, v] of stacksIn(recorded, 0, ms, 2).slice(0, top))
        console.log(`    ${v.toFixed(1).padStart(7)} ms  ${k}`)
    }
    for (const [a, b] of blocks) {
      const busy = stacksIn(recorded, a, b).filter(([k]) => !k.startsWith('(idle)'))
      const total = busy.reduce((n, [, v]) => n + v, 0)
      const since = `${(t0 + a).toFixed(0)} ms since the process began, as --trace-gc counts`
      console.log(
        `  at ${a.toFixed(0)} ms (${since}), ${(b - a).toFixed(0)} ms: ${total.toFixed(0)} ms of samples`
      )
      for (const [k, v] of busy.slice(0, 5)) console.log(`    ${v.toFixed(1).padStart(7)} ms  ${k}`)
    }
  }
} finally {
  session.disconnect()
  await page.close()
  await core.dispose()
  closeSeedConnections()
  await service.stop()
  rmSync(dir, { recursive: true, force: true })
}
