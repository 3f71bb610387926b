/**
 * Profiling aid for the renderer's start (not part of `npm run bench`):
 *   node --import tsx test/bench/profileStart.ts [--runs N] [--floor] [--from PHASE]
 *     [--profile [--lines | --inclusive]] [--trace [--timeline]]
 * Needs the built renderer (`npx electron-vite build`, with `--sourcemap` for a summary by source
 * file) and a keychain (run it under `.ci/keyring.sh`'s `in_keyring_session`, as the bench does).
 *
 * Starts the app on 1,000 cached agents as the start figure does (or the floor page, `--floor`)
 * and prints, per start: when the app's code was evaluated, the app mounted, the cached list
 * applied, the first row put in the DOM and painted, and the page's long tasks — the phases the
 * figure hides. `--profile` records a CPU profile of each start and sums the page's busy time up
 * to the paint by source file (the sourcemap's, when there is one): where a start's time goes;
 * `--lines` by source line, `--inclusive` by each line of the app's own code on the stack.
 * `--trace` records a Chromium trace and sums the main thread's self time by event (script, style,
 * layout, paint, GC…); `--timeline` also lists each start's tasks and their larger parts. `--from
 * code|mounted|list|row` keeps only what happens from that phase to the paint. Each start also
 * prints its DOM (elements, style sheets, rules), its Vue components by name and its marks.
 */
import { type Profile, readProfile } from './cpuProfile'
import { printTop, withPageRig } from './pageRig'
import { apiCall } from './seed'
import { sourceKey } from './sourceKey'
import { addByEvent, type TraceEvent } from './traceEvents'
import { median } from './types'

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
    requestAnimationFrame(() => setTimeout(() => {
      P.painted = performance.now();
      P.nodes = document.getElementsByTagName('*').length;
      P.rules = [...document.styleSheets].reduce((n, s) => { try { return n + s.cssRules.length } catch { return n } }, 0);
      P.sheets = document.styleSheets.length;
      const counts = {};
      const walk = (v) => {
        if (!v) return;
        if (v.component) { const t = v.component.type; const n = t.name || t.__name || '?'; counts[n] = (counts[n] || 0) + 1; walk(v.component.subTree); return; }
        if (Array.isArray(v.children)) v.children.forEach((c) => c && typeof c === 'object' && walk(c));
        if (v.suspense) walk(v.suspense.activeBranch);
      };
      walk(document.querySelector('#app')?._vnode);
      P.components = Object.entries(counts).sort((a, b) => b[1] - a[1]).map(([k, n]) => k + ':' + n).join(' ');
    }, 0));
  });
  mo.observe(document, { childList: true, subtree: true });
})();`

/**
 * Adds a profile's busy (non-idle) time up to the paint to `into`, by source file (or native
 * function). The profile's clock is not the page's: its first sample in the page's entry script is
 * taken as the start of the page's first long task (`taskStart`, page time), within a millisecond.
 */
function addBySource(
  p: Profile,
  into: Map<string, number>,
  taskStart: number,
  from: number,
  painted: number,
  mode: 'files' | 'lines' | 'inclusive'
): void {
  const { samples, stack } = readProfile(p)
  const first = samples.find((x) => x.node.callFrame.url.includes('/assets/index-'))
  if (!first) return
  const since = first.at + (from - taskStart) * 1000
  const until = first.at + (painted - taskStart) * 1000
  for (const { node, at, ms } of samples) {
    if (at > until || at < since || node.callFrame.functionName === '(idle)') continue
    if (mode !== 'inclusive') {
      const key = sourceKey(node.callFrame, mode === 'lines')
      into.set(key, (into.get(key) ?? 0) + ms)
      continue
    }
    // Every frame of the app's own code on the stack (each once), with the time spent under it.
    const seen = new Set<string>()
    for (const n of stack(node)) {
      const key = sourceKey(n.callFrame, true)
      if (!key.startsWith('src/') || seen.has(key)) continue
      seen.add(key)
      into.set(key, (into.get(key) ?? 0) + ms)
    }
  }
}

async function main() {
  const args = process.argv.slice(2)
  const runs = Number(args[args.indexOf('--runs') + 1]) || 7
  const floorMode = args.includes('--floor')
  const profile = args.includes('--profile')
  // `--from list`: only the busy time from that phase (code, mounted, list, row) to the paint.
  const trace = args.includes('--trace')
  const mode = args.includes('--inclusive') ? 'inclusive' : args.includes('--lines') ? 'lines' : 'files'
  const from = args.includes('--from')
    ? (args[args.indexOf('--from') + 1] as 'code' | 'mounted' | 'list' | 'row')
    : null
  await withPageRig(
    { agents: 1000, email: 'start@example.com' },
    async ({ harness, floor, browser, seed, context: newContext }) => {
      await harness.core().invoke('agents.list', {}) // the cache the start paints from
      const items = (await apiCall(
        'GET',
        `${seed.baseUrl}/api/v1/agents`,
        undefined,
        seed.token
      )) as unknown[]
      const url = floorMode
        ? floor.page('start', { mode: 'start', resource: 'agents', testid: 'agent', items })
        : `${harness.url}/#/agents`
      const painted: number[] = []
      const bySource = new Map<string, number>()
      const byEvent = new Map<string, number>()
      for (let r = 0; r < runs; r++) {
        const context = await newContext()
        await context.addInitScript(INIT)
        const page = await context.newPage()
        const cdp = profile ? await context.newCDPSession(page) : null
        if (cdp) {
          await cdp.send('Profiler.enable')
          await cdp.send('Profiler.setSamplingInterval', { interval: 100 })
          await cdp.send('Profiler.start')
        }
        if (trace)
          await browser.startTracing(page, {
            categories: [
              'devtools.timeline',
              'v8',
              'blink.user_timing',
              'loading',
              'disabled-by-default-devtools.timeline',
              'disabled-by-default-devtools.timeline.stack'
            ]
          })
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
            longTasks: P.longTasks as number[][],
            marks: performance
              .getEntriesByType('mark')
              .map((m) => `${m.name.replace('agent-desk:', '')}@${Math.round(m.startTime)}`)
              .join(' '),
            dom: `${String(P.nodes)} elements, ${String(P.sheets)} style sheets, ${String(P.rules)} rules; ${String(P.components)}`
          }
        })
        if (cdp) {
          const { profile: recorded } = await cdp.send('Profiler.stop')
          const taskStart = at.longTasks[0]?.[0] ?? 0
          addBySource(recorded as Profile, bySource, taskStart, from ? at[from] : 0, at.painted, mode)
        }
        if (trace) {
          const { traceEvents } = JSON.parse((await browser.stopTracing()).toString('utf8')) as {
            traceEvents: TraceEvent[]
          }
          addByEvent(traceEvents, byEvent, from ? at[from] : 0, at.painted, args.includes('--timeline'))
        }
        painted.push(at.painted)
        const tasks = at.longTasks.map(([s, d]) => `${s}+${d}`).join(' ')
        const ms = (v: number) => (Number.isNaN(v) ? '—' : String(v))
        console.log(
          `start ${r + 1}: code ${ms(at.code)} · mounted ${ms(at.mounted)} · list ${ms(at.list)} · row ${at.row} · painted ${at.painted} ms; long tasks ${tasks}; ${at.dom}\n  ${at.marks}`
        )
        await page.waitForTimeout(500) // the app's refresh of the list, so it does not run into the next start
        await context.close()
      }
      console.log(
        `painted: median ${median(painted).toFixed(0)} ms of ${runs} ${floorMode ? 'floor' : 'app'} starts`
      )
      if (profile) {
        const total = [...bySource.values()].reduce((a, b) => a + b, 0)
        const span = from ? `from ${from} until painted` : 'until painted'
        console.log(`busy ${(total / runs).toFixed(0)} ms per start ${span}, by source:`)
        printTop(bySource, runs, 30)
      }
      if (trace) {
        const total = [...byEvent.values()].reduce((a, b) => a + b, 0)
        console.log(
          `main thread ${(total / runs).toFixed(0)} ms per start ${from ? `from ${from} ` : ''}until painted, self time by event:`
        )
        printTop(byEvent, runs, 25)
      }
    }
  )
}

await main()
