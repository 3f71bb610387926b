/**
 * Renderer benchmark (`node --import tsx test/bench/renderer.ts`; needs `npx electron-vite build`).
 *
 * The BUILT renderer runs in headless Debian Chromium through the e2e web harness (the real main
 * core in this process), against the embedded service (child process) seeded through its API:
 * - start: 1,000 agents cached → navigation start to the agents list painted (fresh page loads);
 * - 10,000 agents / documents / tools: first paint after the list answer arrives, a filter
 *   keystroke (keydown → next painted frame with the new rows), rows in the DOM while scrolling;
 * - the JS heap with 10,000 agents loaded (CDP Runtime.getHeapUsage after a GC);
 * - the initial JavaScript (entry + static imports) gzip size, from out/renderer.
 *
 * The page is instrumented from outside only: an init script wraps `window.agentDesk.<res>.list`
 * (the harness bridge) to note when a non-empty answer resolves, and a MutationObserver +
 * requestAnimationFrame note when rows are painted. "Painted" = a task queued from the rAF
 * callback of the first frame holding the rows (runs after that frame's paint).
 */
import { chromium, type Browser, type Page } from '@playwright/test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { SECRET_HEADER, startHarness, type Harness } from '../../e2e/harness/server'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/support/chromium'
import { closeSeedConnections, seedAccount, startBenchService, type SeedResult } from './seed'
import { median } from './main'
import { runAsScript, type BenchRow } from './types'

export interface RendererBenchOptions {
  /** Items of each big list. Default 10,000. */
  items?: number
  /** Agents of the start-up figure. Default 1,000. */
  startAgents?: number
  /** Fresh page loads for the start-up figure. Default 9. */
  startRuns?: number
  /** Fresh pages per big list for the first-paint figure. Default 3. */
  paintRuns?: number
  rendererDir?: string
}

/** Page-side instrumentation, installed before the app's scripts. */
const INIT_SCRIPT = `(() => {
  // tsx compiles the page functions below with esbuild's keepNames, which calls __name().
  window.__name = (f) => f;
  const B = (window.__bench = { listResolved: {}, firstRows: null, marks: [] });
  const afterPaint = (cb) => requestAnimationFrame(() => setTimeout(() => cb(performance.now()), 0));
  // First agent row painted (start-up figure).
  const mo = new MutationObserver(() => {
    if (B.firstRows === null && document.querySelector('[data-testid=agent-row]')) {
      B.firstRows = -1;
      mo.disconnect();
      afterPaint((t) => { B.firstRows = t; });
    }
  });
  mo.observe(document, { childList: true, subtree: true });
  // When a list answer with data resolves (the harness bridge sets window.agentDesk once).
  let api;
  Object.defineProperty(window, 'agentDesk', {
    configurable: true,
    get() { return api; },
    set(v) {
      api = v;
      for (const res of ['agents', 'documents', 'tools']) {
        const group = v && v[res];
        if (!group || typeof group.list !== 'function') continue;
        const orig = group.list;
        group.list = (input) => orig(input).then((r) => {
          if (r && Array.isArray(r.data) && r.data.length > 0 && B.listResolved[res] === undefined)
            B.listResolved[res] = performance.now();
          return r;
        });
      }
    }
  });
  B.afterPaint = afterPaint;
})();`

interface ListFigures {
  firstPaintMs: number
  /** Every sample of the first paint, when more than one page was measured. */
  paintRuns?: number[]
  keystrokeMs: number[]
  maxRows: number
  total: number
}

/** Waits until `sel` rows exist; returns ms from the list answer resolving to the painted frame. */
async function firstPaintAfterData(page: Page, resource: string, rowSel: string): Promise<number> {
  await page.waitForFunction(
    (res) => (window as unknown as BenchWindow).__bench.listResolved[res] !== undefined,
    resource,
    {
      timeout: 120_000,
      polling: 50
    }
  )
  // The observer is armed in-page at the answer, so a poll interval does not add to the figure.
  return page.evaluate(
    ([res, sel]) =>
      new Promise<number>((done) => {
        const B = (window as unknown as BenchWindow).__bench
        const t0 = B.listResolved[res] as number
        const check = () => {
          if (document.querySelector(sel)) B.afterPaint((t: number) => done(t - t0))
          else requestAnimationFrame(check)
        }
        check()
      }),
    [resource, rowSel] as const
  )
}

interface BenchWindow {
  __bench: {
    listResolved: Record<string, number | undefined>
    firstRows: number | null
    afterPaint: (cb: (t: number) => void) => void
    pending?: Promise<number>
  }
}

/** Types one key into the list filter; ms from keydown to the painted frame with the new result. */
async function keystroke(page: Page, listSel: string, key: string): Promise<number> {
  // Armed in a call of its own, finished before the key is sent (an input event can overtake a
  // pending evaluate).
  await page.evaluate((sel) => {
    const B = (window as unknown as BenchWindow).__bench
    const list = document.querySelector(sel)
    if (!list) throw new Error(`no ${sel}`)
    B.pending = new Promise<number>((done, fail) => {
      let t0 = 0
      document.addEventListener('keydown', () => (t0 = performance.now()), { capture: true, once: true })
      const mo = new MutationObserver(() => {
        if (!t0) return
        mo.disconnect()
        B.afterPaint((t: number) => done(t - t0))
      })
      // The rows, and the count beside the title (it changes even when the first rows happen to
      // match both the old and the new filter).
      const opts = { childList: true, subtree: true, characterData: true }
      mo.observe(list, opts)
      const count = document.querySelector('[data-testid=list-count]')
      if (count) mo.observe(count, opts)
      setTimeout(() => fail(new Error('the list did not change')), 20_000)
    })
  }, listSel)
  await page.keyboard.press(key)
  return page.evaluate(() => (window as unknown as BenchWindow).__bench.pending as Promise<number>)
}

/** Scrolls the virtual list to several positions; the largest count of rows in the DOM. */
async function maxRowsWhileScrolling(page: Page, listSel: string, rowSel: string): Promise<number> {
  return page.evaluate(
    async ([lsel, rsel]) => {
      const root = document.querySelector(lsel) as HTMLElement
      const all = [root, ...Array.from(root.querySelectorAll<HTMLElement>('*'))]
      const scroller = all.find(
        (e) => e.scrollHeight > e.clientHeight + 10 && getComputedStyle(e).overflowY !== 'visible'
      )
      if (!scroller) throw new Error('no scrollable element in the list')
      const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
      let max = document.querySelectorAll(rsel).length
      const max0 = scroller.scrollHeight - scroller.clientHeight
      for (const f of [0.1, 0.25, 0.5, 0.5005, 0.75, 0.9, 1, 0.33, 0]) {
        scroller.scrollTop = Math.round(max0 * f)
        scroller.dispatchEvent(new Event('scroll'))
        await frame()
        max = Math.max(max, document.querySelectorAll(rsel).length)
      }
      // Fast wheel-like scrolling: many small steps without waiting for a frame in between.
      for (let i = 0; i < 50; i++) {
        scroller.scrollTop += 400
        scroller.dispatchEvent(new Event('scroll'))
        if (i % 10 === 0) await frame()
        max = Math.max(max, document.querySelectorAll(rsel).length)
      }
      return max
    },
    [listSel, rowSel] as const
  )
}

async function listFigures(
  page: Page,
  resource: 'agents' | 'documents' | 'tools',
  row: string,
  list: string
): Promise<ListFigures> {
  const firstPaintMs = await firstPaintAfterData(page, resource, `[data-testid=${row}]`)
  const listSel = `[data-testid=${list}]`
  const total = await page.evaluate((sel) => document.querySelectorAll(sel).length, `[data-testid=${row}]`)
  await page.locator('[data-testid=list-filter]').first().click()
  const keystrokeMs: number[] = []
  // Each key changes the rows shown: narrow, widen back, narrow again…
  for (const key of ['7', 'Backspace', '3', 'Backspace', '5', 'Backspace', '9', 'Backspace']) {
    keystrokeMs.push(await keystroke(page, listSel, key))
  }
  const maxRows = await maxRowsWhileScrolling(page, listSel, `[data-testid=${row}]`)
  return { firstPaintMs, keystrokeMs, maxRows, total }
}

/** Gzip size of the JS index.html loads at start: entry module, its static imports, modulepreloads. */
export function initialJsGzip(rendererDir: string): { bytes: number; files: string[] } {
  const html = readFileSync(join(rendererDir, 'index.html'), 'utf8')
  const queue: string[] = []
  for (const m of html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)) queue.push(m[1] as string)
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g))
    queue.push(m[1] as string)
  const seen = new Set<string>()
  let bytes = 0
  while (queue.length) {
    const rel = queue.shift() as string
    const file = resolve(rendererDir, rel.replace(/^\.?\//, ''))
    if (seen.has(file)) continue
    seen.add(file)
    const code = readFileSync(file)
    bytes += gzipSync(code).length
    // Static imports only (`import … from "./x.js"`, `import "./x.js"`), not `import("./x.js")`.
    const text = code.toString('utf8')
    const dir = file.slice(0, file.lastIndexOf('/'))
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+\.js)["']/g)) {
      queue.push(join(dir, m[1] as string).slice(rendererDir.length + 1))
    }
  }
  return { bytes, files: [...seen].map((f) => f.slice(rendererDir.length + 1)) }
}

async function signIn(h: Harness, profileId: string, seed: SeedResult): Promise<void> {
  const state = await h.core().invoke('session.get', {})
  if (state.ok && (state.value as { signedIn?: boolean }).signedIn) {
    await h.core().invoke('session.signOut', { clearCache: false })
  }
  const r = await h.core().invoke('session.signIn', { profileId, email: seed.email, password: seed.password })
  if (!r.ok) throw new Error(`sign-in failed: ${r.error.message}`)
}

export async function runRendererBench(options: RendererBenchOptions = {}): Promise<BenchRow[]> {
  const n = options.items ?? 10_000
  const startAgents = options.startAgents ?? 1000
  const startRuns = options.startRuns ?? 9
  const paintRuns = options.paintRuns ?? 3
  const rendererDir = resolve(options.rendererDir ?? join(process.cwd(), 'out/renderer'))
  const rows: BenchRow[] = []

  const js = initialJsGzip(rendererDir)
  rows.push({
    name: 'initial renderer JS (entry + static imports), gzip',
    value: js.bytes / 1000,
    unit: 'kB',
    reference: 300,
    ratio: js.bytes / 1000 / 300,
    note: `target ≤ 300 kB; ${js.files.length} files`
  })

  const service = await startBenchService()
  const userDataDir = mkdtempSync(join(tmpdir(), 'agent-desk-bench-renderer-'))
  let harness: Harness | null = null
  let browser: Browser | null = null
  try {
    const small = await seedAccount(service.url, { agents: startAgents, email: 'small@example.com' })
    const big = await seedAccount(service.url, {
      agents: n,
      documents: n,
      tools: n,
      email: 'big@example.com'
    })
    harness = await startHarness({ userDataDir, rendererDir })
    const h = harness
    const saved = await h.core().invoke('profiles.save', { name: 'Bench', baseUrl: service.url })
    if (!saved.ok) throw new Error(saved.error.message)
    const profileId = (saved.value as { id: string }).id
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS
    })
    const b = browser
    const open = async () => {
      const context = await b.newContext({
        extraHTTPHeaders: { [SECRET_HEADER]: h.secret },
        viewport: { width: 1280, height: 800 }
      })
      await context.addInitScript(INIT_SCRIPT)
      const page = await context.newPage()
      page.on('pageerror', (e) => console.error(`[renderer] ${e.message}`))
      return { context, page }
    }

    // (a) Start-up with 1,000 agents in the cache.
    await signIn(h, profileId, small)
    const warm = await h.core().invoke('agents.list', {})
    if (!warm.ok) throw new Error(warm.error.message)
    /** One start on `page`: ms to the agents painted, and the phases. */
    const startOn = async (page: Page): Promise<[number, number[]]> => {
      await page.goto(`${h.url}/#/agents`)
      await page.waitForFunction(
        () => ((window as unknown as BenchWindow).__bench.firstRows ?? -1) > 0,
        null,
        {
          timeout: 60_000,
          polling: 50
        }
      )
      const [painted, parts] = await page.evaluate(() => {
        const at = (name: string) => performance.getEntriesByName(name)[0]?.startTime ?? NaN
        const B = (window as unknown as BenchWindow).__bench
        return [
          B.firstRows as number,
          [at('agent-desk:app-code'), at('agent-desk:mounted'), at('agent-desk:list:agents')]
        ] as const
      })
      return [painted, [...parts]]
    }
    const starts: number[] = []
    const phases: number[][] = []
    for (let r = 0; r < startRuns; r++) {
      const { context, page } = await open()
      const [painted, parts] = await startOn(page)
      starts.push(painted)
      phases.push(parts)
      await context.close()
    }
    // Later starts: one browser profile kept from start to start, as an installed app keeps its
    // own. The page's files come from the HTTP cache and their compiled code from V8's code
    // cache, which Chromium fills over the first two loads (Electron does the same for the app
    // scheme); the loads after those are measured.
    const profileDir = mkdtempSync(join(tmpdir(), 'agent-desk-bench-profile-'))
    const later: number[] = []
    const laterPhases: number[][] = []
    try {
      const kept = await chromium.launchPersistentContext(profileDir, {
        executablePath: CHROMIUM_PATH,
        args: CHROMIUM_ARGS,
        extraHTTPHeaders: { [SECRET_HEADER]: h.secret },
        viewport: { width: 1280, height: 800 }
      })
      try {
        await kept.addInitScript(INIT_SCRIPT)
        for (let r = 0; r < startRuns + 2; r++) {
          const page = await kept.newPage()
          const [painted, parts] = await startOn(page)
          if (r >= 2) {
            later.push(painted)
            laterPhases.push(parts)
          }
          await page.close()
        }
      } finally {
        await kept.close()
      }
    } finally {
      rmSync(profileDir, { recursive: true, force: true })
    }
    const startMed = median(starts)
    const laterMed = median(later)
    const phase = (i: number, of = phases) => median(of.map((p) => p[i] as number)).toFixed(0)
    rows.push({
      name: `start → agents list painted from the cache (${startAgents} agents), first start`,
      value: startMed,
      unit: 'ms',
      reference: 400,
      ratio: startMed / 400,
      note: `target ≤ 400 ms; median of ${startRuns} loads in fresh browser profiles; runs ${starts.map((x) => x.toFixed(0)).join('/')}`
    })
    rows.push({
      name: `later starts (browser profile and code cache kept)`,
      value: laterMed,
      unit: 'ms',
      reference: 400,
      ratio: laterMed / 400,
      note: `target ≤ 400 ms; median of ${later.length} loads after 2 priming ones; runs ${later.map((x) => x.toFixed(0)).join('/')}`
    })
    rows.push({
      name: '  of which: app code evaluated / mounted / cached list applied (ms)',
      value: Number(phase(2)),
      unit: 'ms',
      note: `first starts; medians ${phase(0)} / ${phase(1)} / ${phase(2)}, then painted at ${startMed.toFixed(0)}`
    })
    rows.push({
      name: '  of which, later starts (ms)',
      value: Number(phase(2, laterPhases)),
      unit: 'ms',
      note: `medians ${phase(0, laterPhases)} / ${phase(1, laterPhases)} / ${phase(2, laterPhases)}, then painted at ${laterMed.toFixed(0)}`
    })

    // (b) 10,000 agents, documents, tools (fresh sign-in: empty cache, the network answer paints).
    // The first page gives every figure; `paintRuns - 1` more fresh pages give more samples of the
    // first paint (a single frame is at the mercy of the machine), of which the median is shown.
    await signIn(h, profileId, big)
    const { context, page } = await open()
    await page.goto(`${h.url}/#/agents`)
    const figures: [string, ListFigures][] = []
    figures.push(['agents', await listFigures(page, 'agents', 'agent-row', 'agent-list')])
    // (c) JS heap with 10,000 agents loaded (the view also loads documents, tags and prompts).
    await page.locator('[data-testid=list-filter]').first().fill('')
    const cdp = await context.newCDPSession(page)
    await cdp.send('HeapProfiler.collectGarbage')
    const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; totalSize: number }
    await context.close()
    const agentPaints = [figures[0]![1].firstPaintMs]
    for (let r = 1; r < paintRuns; r++) {
      await h.core().invoke('session.signOut', { clearCache: true })
      await signIn(h, profileId, big)
      const again = await open()
      await again.page.goto(`${h.url}/#/agents`)
      agentPaints.push(await firstPaintAfterData(again.page, 'agents', '[data-testid=agent-row]'))
      await again.context.close()
    }
    figures[0]![1].firstPaintMs = median(agentPaints)
    figures[0]![1].paintRuns = agentPaints
    // Documents and tools: each on fresh pages (the agents pages above already loaded documents
    // for their palette).
    for (const [what, row, list] of [
      ['documents', 'document-row', 'document-list'],
      ['tools', 'tool-row', 'tool-list']
    ] as const) {
      let first: ListFigures | null = null
      const paints: number[] = []
      for (let r = 0; r < paintRuns; r++) {
        const fresh = await open()
        // Booted on the tags view (which reads neither list), then navigated, so the answer that
        // paints is read by the view itself and not before the app started (early reads).
        await fresh.page.goto(`${h.url}/#/tags`)
        await fresh.page.locator('[data-testid=list-filter]').waitFor({ timeout: 60_000 })
        await fresh.page.evaluate((hash) => {
          location.hash = hash
        }, `#/${what}`)
        if (!first) {
          first = await listFigures(fresh.page, what, row, list)
          paints.push(first.firstPaintMs)
        } else paints.push(await firstPaintAfterData(fresh.page, what, `[data-testid=${row}]`))
        await fresh.context.close()
      }
      if (!first) throw new Error('no pages were opened')
      figures.push([what, { ...first, firstPaintMs: median(paints), paintRuns: paints }])
    }

    for (const [what, f] of figures) {
      const key = median(f.keystrokeMs)
      const keyMax = Math.max(...f.keystrokeMs)
      rows.push({
        name: `${n} ${what}: first paint after the list answer`,
        value: f.firstPaintMs,
        unit: 'ms',
        reference: 100,
        ratio: f.firstPaintMs / 100,
        note: `target ≤ 100 ms; median of ${f.paintRuns?.length ?? 1} fresh pages${
          f.paintRuns ? `; runs ${f.paintRuns.map((x) => x.toFixed(0)).join('/')}` : ''
        }`
      })
      rows.push({
        name: `${n} ${what}: filter keystroke → painted`,
        value: key,
        unit: 'ms',
        reference: 50,
        ratio: key / 50,
        note: `target ≤ 50 ms; median of ${f.keystrokeMs.length}, max ${keyMax.toFixed(0)}`
      })
      rows.push({
        name: `${n} ${what}: most rows in the DOM while scrolling`,
        value: f.maxRows,
        unit: 'rows',
        reference: 60,
        ratio: f.maxRows / 60,
        note: `target ≤ ~60; ${f.total} at first paint`
      })
    }
    rows.push({
      name: `renderer JS heap with ${n} agents loaded (after GC)`,
      value: heap.usedSize / 1024 / 1024,
      unit: 'MiB',
      note: `total heap ${(heap.totalSize / 1024 / 1024).toFixed(0)} MiB; ${n} documents loaded too`
    })
    return rows
  } finally {
    await browser?.close()
    await harness?.close()
    closeSeedConnections()
    await service.stop()
    rmSync(userDataDir, { recursive: true, force: true })
  }
}

runAsScript(import.meta.url, 'Renderer (headless Chromium, built renderer via the web harness)', () =>
  runRendererBench()
)
