/**
 * Profiling aid for a list's filter keystroke (not part of `npm run bench`):
 *   node --import tsx test/bench/profileKeys.ts [agents|documents|tools] [--items N] [--keys N] [--lines | --inclusive]
 *     [--trace]
 * Needs the built renderer (`npx electron-vite build --sourcemap`) and a keychain (run it under
 * `.ci/keyring.sh`'s `in_keyring_session`, as the bench does).
 *
 * Opens the app's list of N items (default 10,000) and the bench's floor page with the same items,
 * types the bench's keys into each filter (the pages in turn, key by key), each key waited on
 * until the frame after its rows change, under a CPU profile; then prints each page's time per key
 * and its busy time by source file (or line, `--lines`; or, `--inclusive`, under each function on
 * the stack): what a keystroke costs beyond the floor's.
 * `--trace` then types the same keys into each page alone under a Chromium trace and prints the
 * page's main-thread time per key by event (script, style, layout, paint…), and the list's size in
 * the DOM.
 */
import type { Page } from '@playwright/test'
import { type Profile, readProfile } from './cpuProfile'
import { printTop, withPageRig } from './pageRig'
import { apiCall } from './seed'
import { sourceKey } from './sourceKey'
import { addSelfTimes, busiestRendererMain, threadOf, type TraceEvent } from './traceEvents'
import { median } from './types'

const KEYS = ['7', 'Backspace', '3', 'Backspace', '5', 'Backspace', '9', 'Backspace']

/** Presses a key in the focused filter; ms from keydown to the frame after the list changed. */
async function key(page: Page, list: string, k: string): Promise<number> {
  await page.evaluate((sel) => {
    const w = window as unknown as { __keyDone?: Promise<number> }
    w.__keyDone = new Promise<number>((done) => {
      let t0 = 0
      document.addEventListener('keydown', () => (t0 = performance.now()), { capture: true, once: true })
      const mo = new MutationObserver(() => {
        if (!t0) return
        mo.disconnect()
        requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0), 0))
      })
      const opts = { childList: true, subtree: true, characterData: true }
      mo.observe(document.querySelector(sel) as Node, opts)
      const count = document.querySelector('[data-testid=list-count]')
      if (count) mo.observe(count, opts)
    })
  }, list)
  await page.keyboard.press(k)
  return page.evaluate(() => (window as unknown as { __keyDone: Promise<number> }).__keyDone)
}

async function main() {
  const args = process.argv.slice(2)
  const what = (['agents', 'documents', 'tools'] as const).find((w) => args.includes(w)) ?? 'agents'
  const testid = what.slice(0, -1)
  const n = Number(args[args.indexOf('--items') + 1]) || 10_000
  const rounds = Number(args[args.indexOf('--keys') + 1]) || 6
  const lines = args.includes('--lines')
  const inclusive = args.includes('--inclusive')
  await withPageRig(
    { [what]: n, email: 'keys@example.com' },
    async ({ harness, floor, browser, seed, context }) => {
      const items = (await apiCall(
        'GET',
        `${seed.baseUrl}/api/v1/${what}`,
        undefined,
        seed.token
      )) as unknown[]
      const urls = {
        app: `${harness.url}/#/${what}`,
        floor: floor.page(`${what}.${items.length}`, { mode: 'list', resource: what, testid, items })
      }
      const pages: { name: 'app' | 'floor'; page: Page; ms: number[]; busy: Map<string, number> }[] = []
      for (const name of ['app', 'floor'] as const) {
        const page = await (await context()).newPage()
        await page.goto(urls[name])
        await page.locator(`[data-testid=${testid}-row]`).first().waitFor({ timeout: 60_000 })
        await page.waitForTimeout(3000) // the app's other lists and its idle-time loads
        await page.locator('[data-testid=list-filter]').first().click()
        pages.push({ name, page, ms: [], busy: new Map() })
      }
      const cdps = await Promise.all(pages.map((p) => p.page.context().newCDPSession(p.page)))
      for (const cdp of cdps) {
        await cdp.send('Profiler.enable')
        await cdp.send('Profiler.setSamplingInterval', { interval: 100 })
        await cdp.send('Profiler.start')
      }
      for (let r = 0; r < rounds; r++)
        for (const k of KEYS)
          for (const p of pages) p.ms.push(await key(p.page, `[data-testid=${testid}-list]`, k))
      for (const [i, cdp] of cdps.entries()) {
        const p = pages[i] as (typeof pages)[number]
        const { profile } = await cdp.send('Profiler.stop')
        const { samples, stack } = readProfile(profile as Profile)
        for (const { node, ms } of samples) {
          if (node.callFrame.functionName === '(idle)') continue
          if (!inclusive) {
            const k = sourceKey(node.callFrame, lines)
            p.busy.set(k, (p.busy.get(k) ?? 0) + ms)
            continue
          }
          // Each function on the stack once (a frame's line is where its function starts).
          const seen = new Set<string>()
          for (const n of stack(node)) {
            const k = `${sourceKey(n.callFrame, true)} ${n.callFrame.functionName}`
            if (seen.has(k)) continue
            seen.add(k)
            p.busy.set(k, (p.busy.get(k) ?? 0) + ms)
          }
        }
      }
      const keys = rounds * KEYS.length
      for (const p of pages) {
        const total = [...p.busy.values()].reduce((a, b) => a + b, 0)
        console.log(
          `${p.name}: ${keys} keys, median ${median(p.ms).toFixed(1)} ms to the frame; busy ${(total / keys).toFixed(1)} ms per key, by source:`
        )
        printTop(p.busy, keys, inclusive ? 60 : 25, 2)
      }
      if (!args.includes('--trace')) return
      for (const p of pages) {
        const list = `[data-testid=${testid}-list]`
        const dom = await p.page.evaluate((sel) => {
          const el = document.querySelector(sel) as Element
          const rows = el.querySelectorAll('[data-testid$=-row]').length
          return `${rows} rows, ${el.getElementsByTagName('*').length} elements in the list, ${document.getElementsByTagName('*').length} in the page`
        }, list)
        await browser.startTracing(p.page, {
          categories: ['devtools.timeline', 'v8', 'disabled-by-default-devtools.timeline']
        })
        for (let r = 0; r < rounds; r++) for (const k of KEYS) await key(p.page, list, k)
        const { traceEvents } = JSON.parse((await browser.stopTracing()).toString('utf8')) as {
          traceEvents: TraceEvent[]
        }
        const thread = busiestRendererMain(traceEvents)
        if (!thread) continue
        const byEvent = new Map<string, number>()
        addSelfTimes(traceEvents, byEvent, thread, 0, Infinity, false)
        const times = new Map<string, number>()
        for (const e of traceEvents)
          if (e.ph === 'X' && threadOf(e) === thread) times.set(e.name, (times.get(e.name) ?? 0) + 1)
        const total = [...byEvent.values()].reduce((a, b) => a + b, 0)
        console.log(
          `${p.name} (${dom}): main thread ${(total / keys).toFixed(1)} ms per key, self time by event:`
        )
        printTop(byEvent, keys, 15, 2, (k) => ` (×${((times.get(k) ?? 0) / keys).toFixed(1)})`)
      }
    }
  )
}

await main()
