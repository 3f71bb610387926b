/**
 * Profiling aid for the renderer's start (not part of `npm run bench`):
 *   node --import tsx test/bench/profileStart.ts [--runs N] [--floor] [--profile]
 * Needs the built renderer (`npx electron-vite build`, with `--sourcemap` for a summary by source
 * file) and a keychain (run it under `.ci/keyring.sh`'s `in_keyring_session`, as the bench does).
 *
 * Starts the app on 1,000 cached agents as the start figure does (or the floor page, `--floor`)
 * and prints, per start: when the app's code was evaluated, the app mounted, the cached list
 * applied, the first row put in the DOM and painted, and the page's long tasks — the phases the
 * figure hides. `--profile` records a CPU profile of each start and sums the page's busy time up
 * to the paint by source file (the sourcemap's, when there is one): where a start's time goes.
 */
import { chromium } from '@playwright/test'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping'
import { SECRET_HEADER, startHarness } from '../../e2e/harness/server'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/support/chromium'
import { startFloorPage } from './floorPage'
import { apiCall, closeSeedConnections, seedAccount, startBenchService } from './seed'
import { median } from './types'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

/** Page-side marks: the first agent row in the DOM, the frame after it, and the long tasks. */
const INIT = `(() => {
  window.__name = (f) => f;
  const P = (window.__probe = { longTasks: [], row: null, painted: null });
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) P.longTasks.push([Math.round(e.startTime), Math.round(e.duration)]);
  }).observe({ type: 'longtask', buffered: true });
  const mo = new MutationObserver(() => {
    if (P.row !== null || !document.querySelector('[data-testid=agent-row]')) return;
    P.row = performance.now();
    mo.disconnect();
    requestAnimationFrame(() => setTimeout(() => (P.painted = performance.now()), 0));
  });
  mo.observe(document, { childList: true, subtree: true });
})();`

const rendererDir = resolve('out/renderer')
const mapFor = (() => {
  const maps = new Map<string, TraceMap | null>()
  return (url: string): TraceMap | null => {
    if (!url.includes('/assets/')) return null
    if (!maps.has(url)) {
      const file = join(rendererDir, 'assets', `${url.split('/').pop() ?? ''}.map`)
      maps.set(url, existsSync(file) ? new TraceMap(readFileSync(file, 'utf8')) : null)
    }
    return maps.get(url) ?? null
  }
})()

/**
 * Adds a profile's busy (non-idle) time up to the paint to `into`, by source file (or native
 * function). The profile's clock is not the page's: its first sample in the page's entry script is
 * taken as the start of the page's first long task (`taskStart`, page time), within a millisecond.
 */
function addBySource(p: Profile, into: Map<string, number>, taskStart: number, painted: number): void {
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const times: number[] = []
  let t = 0
  for (const d of p.timeDeltas) times.push((t += d))
  const first = p.samples.findIndex((id) => byId.get(id)?.callFrame.url.includes('/assets/index-'))
  if (first < 0) return
  const until = (times[first] as number) + (painted - taskStart) * 1000
  p.samples.forEach((id, i) => {
    if ((times[i] as number) > until) return
    const cf = (byId.get(id) as ProfileNode).callFrame
    if (cf.functionName === '(idle)') return
    const map = mapFor(cf.url)
    const at = map ? originalPositionFor(map, { line: cf.lineNumber + 1, column: cf.columnNumber }) : null
    const key = at?.source
      ? at.source.replace(/^.*node_modules\/((@[^/]+\/)?[^/]+).*$/, '$1').replace(/^.*src\/renderer\//, '')
      : cf.url
        ? `${cf.url.split('/').pop() ?? ''} ${cf.functionName}`
        : cf.functionName
    into.set(key, (into.get(key) ?? 0) + (p.timeDeltas[i + 1] ?? 0) / 1000)
  })
}

async function main() {
  const args = process.argv.slice(2)
  const runs = Number(args[args.indexOf('--runs') + 1]) || 7
  const floorMode = args.includes('--floor')
  const profile = args.includes('--profile')
  const service = await startBenchService()
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-desk-profile-start-'))
  const harness = await startHarness({ userDataDir: dataDir, rendererDir })
  const floor = await startFloorPage()
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
  try {
    const seed = await seedAccount(service.url, { agents: 1000, email: 'start@example.com' })
    const saved = await harness.core().invoke('profiles.save', { name: 'Profile', baseUrl: service.url })
    if (!saved.ok) throw new Error(saved.error.message)
    const profileId = (saved.value as { id: string }).id
    const signedIn = await harness
      .core()
      .invoke('session.signIn', { profileId, email: seed.email, password: seed.password })
    if (!signedIn.ok) throw new Error(signedIn.error.message)
    await harness.core().invoke('agents.list', {}) // the cache the start paints from
    const items = (await apiCall('GET', `${seed.baseUrl}/api/v1/agents`, undefined, seed.token)) as unknown[]
    const url = floorMode
      ? floor.page('start', { mode: 'start', resource: 'agents', testid: 'agent', items })
      : `${harness.url}/#/agents`
    const painted: number[] = []
    const bySource = new Map<string, number>()
    for (let r = 0; r < runs; r++) {
      const context = await browser.newContext({
        extraHTTPHeaders: { [SECRET_HEADER]: harness.secret },
        viewport: { width: 1280, height: 800 }
      })
      await context.addInitScript(INIT)
      const page = await context.newPage()
      const cdp = profile ? await context.newCDPSession(page) : null
      if (cdp) {
        await cdp.send('Profiler.enable')
        await cdp.send('Profiler.setSamplingInterval', { interval: 100 })
        await cdp.send('Profiler.start')
      }
      await page.goto(url)
      await page.waitForFunction(
        () => (window as unknown as { __probe: { painted: unknown } }).__probe.painted,
        null,
        {
          timeout: 60_000,
          polling: 50
        }
      )
      const at = await page.evaluate(() => {
        const P = (window as unknown as { __probe: Record<string, unknown> }).__probe
        const mark = (n: string) => Math.round(performance.getEntriesByName(n)[0]?.startTime ?? NaN)
        return {
          code: mark('agent-desk:app-code'),
          mounted: mark('agent-desk:mounted'),
          list: mark('agent-desk:list:agents'),
          row: Math.round(P.row as number),
          painted: Math.round(P.painted as number),
          longTasks: P.longTasks as number[][]
        }
      })
      if (cdp) {
        const { profile: recorded } = await cdp.send('Profiler.stop')
        addBySource(recorded as Profile, bySource, at.longTasks[0]?.[0] ?? 0, at.painted)
      }
      painted.push(at.painted)
      const tasks = at.longTasks.map(([s, d]) => `${s}+${d}`).join(' ')
      const ms = (v: number) => (Number.isNaN(v) ? '—' : String(v))
      console.log(
        `start ${r + 1}: code ${ms(at.code)} · mounted ${ms(at.mounted)} · list ${ms(at.list)} · row ${at.row} · painted ${at.painted} ms; long tasks ${tasks}`
      )
      await page.waitForTimeout(500) // the app's refresh of the list, so it does not run into the next start
      await context.close()
    }
    console.log(
      `painted: median ${median(painted).toFixed(0)} ms of ${runs} ${floorMode ? 'floor' : 'app'} starts`
    )
    if (profile) {
      const total = [...bySource.values()].reduce((a, b) => a + b, 0)
      console.log(`busy ${(total / runs).toFixed(0)} ms per start until painted, by source:`)
      for (const [k, ms] of [...bySource].sort((a, b) => b[1] - a[1]).slice(0, 30))
        console.log(`${(ms / runs).toFixed(1).padStart(8)} ms  ${k}`)
    }
  } finally {
    await browser.close()
    await floor.close()
    await harness.close()
    await closeSeedConnections()
    await service.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
