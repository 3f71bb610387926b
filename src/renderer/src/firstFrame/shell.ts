/**
 * The first frame of a start: a classic script, run as the page is parsed and before the app's
 * code, that draws the agents list from the cache while that code is still being evaluated.
 *
 * The preload (or the harness's bridge) has asked main for the session and the cached agents as the
 * page began to load (`buildDeskApi`'s early reads). This script takes both and, for a signed-in
 * user, draws the page's frame (sidebar, top bar, list pane) and the rows the list will show first
 * — the same order as the app's "Name A–Z", the same row and tag chip styles, where the app last
 * drew them (`contract.ts`) — and only after that frame starts the app's module (the build turns
 * the page's entry script into a `modulepreload` link marked `data-app-entry`, so the code still
 * downloads and compiles meanwhile). The app takes the same reads from `window.agentDeskFirstFrame`
 * (no second copy), and the frame goes as soon as the app has put its own rows in the page, or
 * when the app ends it (a screen without the list, see `firstFrame/index.ts`).
 *
 * Anything else — another route, no early read, an empty cache, an error here — starts the app at
 * once and draws nothing. The frame is decoration: it takes no input (pointer events pass through)
 * and is hidden from assistive technology.
 *
 * Built on its own into one classic script (`electron.vite.config.ts`): it imports only small
 * helpers, and exports nothing.
 */
import type { EarlyKey, EarlyRead, Read, SessionState } from '../../../shared/ipc'
import { readableTextColor, safeColor } from '../components/common/color'
import { effectiveTheme, storedThemePreference } from '../themeChoice'
import { FIRST_FRAME_LAYOUT_KEY, type FirstFrameHandle, type FirstFrameLayout } from './contract'

;(() => {
  const LIST_KEY: EarlyKey = 'list:agents'
  const SESSION_KEY: EarlyKey = 'session'
  /** How long the app's code waits for the cached list before starting without a first frame. */
  const WAIT_MS = 400
  /** Rows drawn at most (a tall window shows about 20). */
  const MAX_ROWS = 40

  interface TagLike {
    name?: unknown
    id?: unknown
    color?: unknown
  }
  interface AgentLike {
    id?: unknown
    name?: unknown
    tags?: unknown
  }

  const entry = document.querySelector<HTMLLinkElement>('link[data-app-entry]')
  let appStarted = false
  /** Starts the app's module (once). Without the marked link the page loads it by itself. */
  const startApp = (): void => {
    if (appStarted || !entry) return
    appStarted = true
    const script = document.createElement('script')
    script.type = 'module'
    if (entry.crossOrigin !== null) script.crossOrigin = entry.crossOrigin
    script.src = entry.href
    document.head.appendChild(script)
  }

  let frame: HTMLElement | null = null
  let observer: MutationObserver | null = null
  /** The early reads taken here, until the app takes them (settled once they have come). */
  const handed = new Map<EarlyKey, EarlyRead<unknown>>()
  const handle: FirstFrameHandle = {
    take(key) {
      const read = handed.get(key)
      handed.delete(key)
      return read
    },
    end() {
      observer?.disconnect()
      observer = null
      frame?.remove()
      frame = null
    }
  }
  window.agentDeskFirstFrame = handle

  const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0

  /**
   * Where to draw: the app's styles for this window's width (AppShell.vue, ResourceListLayout.vue:
   * sidebar 190 px, or 150 below 1200; a 45 px top bar; a list pane of 300–420 px, or 240 px–36 %
   * below 1200, with 12 px padding; rows 50 px high, 4 px apart), with what the app remembered
   * (`contract.ts`): the rows' top (under the title, filter, selects and tag chips) and, when the
   * window has the same width, the rest. Defaults for what is missing or unreadable.
   */
  const layout = (): Omit<FirstFrameLayout, 'v' | 'width'> => {
    const wide = innerWidth >= 1200
    const nav = wide ? 190 : 150
    const paneW = wide ? 420 : Math.max(240, Math.round((innerWidth - nav) * 0.36))
    const own = {
      nav,
      top: 45,
      pane: { x: nav, w: paneW },
      rows: { x: nav + 12, y: 198, w: paneW - 25, pitch: 54 }
    }
    let kept: Partial<FirstFrameLayout> | null = null
    try {
      kept = JSON.parse(
        localStorage.getItem(FIRST_FRAME_LAYOUT_KEY) ?? 'null'
      ) as Partial<FirstFrameLayout> | null
    } catch {
      // Unreadable: the defaults.
    }
    const r = kept?.v === 1 ? kept.rows : undefined
    if (!kept || !r || ![r.x, r.y, r.w, r.pitch].every(num) || r.pitch <= 0) return own
    if (
      kept.width !== innerWidth ||
      !num(kept.nav) ||
      !num(kept.top) ||
      !num(kept.pane?.x) ||
      !num(kept.pane?.w)
    )
      return { ...own, rows: { ...own.rows, y: r.y, pitch: r.pitch } }
    return { nav: kept.nav, top: kept.top, pane: { x: kept.pane.x, w: kept.pane.w }, rows: r }
  }

  /** The first `n` agents in the list's "Name A–Z" order (stable, as the app's sort). */
  const firstByName = (items: AgentLike[], n: number): AgentLike[] => {
    const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true })
    const name = (a: AgentLike) => (typeof a.name === 'string' ? a.name : '')
    const best: AgentLike[] = []
    for (const item of items) {
      if (!item || typeof item !== 'object') continue
      if (best.length === n && collator.compare(name(item), name(best[n - 1] as AgentLike)) >= 0) continue
      let i = best.length
      while (i > 0 && collator.compare(name(item), name(best[i - 1] as AgentLike)) < 0) i--
      best.splice(i, 0, item)
      if (best.length > n) best.pop()
    }
    return best
  }

  const el = (tag: string, cls: string, text?: string): HTMLElement => {
    const e = document.createElement(tag)
    e.className = cls
    if (text !== undefined) e.textContent = text
    return e
  }

  const STYLE = `
#first-frame{position:fixed;inset:0;z-index:2147483647;pointer-events:none;background:Canvas;color:CanvasText;
font:14px/1.6 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;overflow:hidden}
#first-frame .ff-box{position:absolute;box-sizing:border-box;border:0 solid rgba(128,128,128,.25)}
#first-frame .ff-brand{font-weight:700;font-size:16px;padding:16px 18px}
#first-frame .ff-row{position:absolute;box-sizing:border-box;height:50px;padding:4px 10px;border:2px solid transparent;
border-radius:6px;display:flex;flex-direction:column;justify-content:center;gap:2px;overflow:hidden}
#first-frame .ff-name{font-weight:500;overflow:hidden;white-space:nowrap;text-overflow:ellipsis}
#first-frame .ff-tags{display:flex;gap:4px;overflow:hidden;align-items:center;min-height:18px}
#first-frame .ff-chip{display:inline-flex;align-items:center;padding:1px 8px;border-radius:10px;font-size:12px;
line-height:18px;max-width:180px;white-space:nowrap;border:2px solid transparent}
#first-frame .ff-chip span{overflow:hidden;text-overflow:ellipsis}
#first-frame .ff-more{font-size:11px;opacity:.7}`

  /** Draws the frame for `read`'s agents; false when there is nothing to draw. */
  const paint = (read: unknown): boolean => {
    const data = (read as Partial<Read<unknown>> | null)?.data
    if (!Array.isArray(data) || data.length === 0) return false
    const at = layout()
    const count = Math.min(MAX_ROWS, Math.max(1, Math.ceil((innerHeight - at.rows.y) / at.rows.pitch)))
    const rows = firstByName(data as AgentLike[], count)
    // The app's theme choice, or the system's (as App.vue shows it).
    const theme = effectiveTheme(
      storedThemePreference(),
      matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
    )
    document.documentElement.style.colorScheme = theme
    document.documentElement.dataset.theme = theme

    const root = el('div', '')
    root.id = 'first-frame'
    root.setAttribute('aria-hidden', 'true')
    root.appendChild(el('style', '', STYLE))
    const box = (css: string): HTMLElement => {
      const b = el('div', 'ff-box')
      b.style.cssText = css
      return root.appendChild(b)
    }
    box(
      `left:0;top:0;bottom:0;width:${at.nav}px;border-right-width:1px;background:rgba(128,128,128,.06)`
    ).appendChild(el('div', 'ff-brand', 'Agent Desk'))
    box(`left:${at.nav}px;right:0;top:0;height:${at.top}px;border-bottom-width:1px`)
    box(`left:${at.pane.x}px;width:${at.pane.w}px;top:${at.top}px;bottom:0;border-right-width:1px`)
    rows.forEach((agent, i) => {
      const row = el('div', 'ff-row')
      row.dataset.firstFrameRow = ''
      row.style.cssText = `left:${at.rows.x}px;top:${at.rows.y + i * at.rows.pitch}px;width:${at.rows.w}px`
      const main = row.appendChild(el('div', ''))
      main.appendChild(
        el('span', 'ff-name', typeof agent.name === 'string' ? agent.name : String(agent.id ?? ''))
      )
      const tags = row.appendChild(el('div', 'ff-tags'))
      const all = (Array.isArray(agent.tags) ? agent.tags : []) as TagLike[]
      for (const tag of all.slice(0, 3)) {
        if (!tag || typeof tag !== 'object') continue
        // TagChip's colours.
        const bg = safeColor(typeof tag.color === 'string' ? tag.color : null)
        const chip = tags.appendChild(el('span', 'ff-chip'))
        chip.style.cssText = `background-color:${bg};color:${readableTextColor(bg)}`
        chip.appendChild(el('span', '', typeof tag.name === 'string' ? tag.name : String(tag.id ?? '')))
      }
      if (all.length > 3) tags.appendChild(el('span', 'ff-more', `+${all.length - 3}`))
      root.appendChild(row)
    })
    document.body.appendChild(root)
    frame = root
    // For the benchmarks and the tests: when the first frame drew, and how many rows.
    performance.mark('agent-desk:first-frame', { detail: { rows: rows.length } })

    // The app's own rows replace these in the same frame (the observer runs before the next paint).
    const app = document.getElementById('app')
    if (app) {
      observer = new MutationObserver(() => {
        if (app.querySelector('[data-testid=agent-row]')) handle.end()
      })
      observer.observe(app, { childList: true, subtree: true })
    }
    return true
  }

  /** Paints from `read`, then starts the app after that frame; or starts it at once. */
  const show = (read: unknown): void => {
    if (appStarted) return
    if (paint(read)) requestAnimationFrame(() => setTimeout(startApp, 0))
    else startApp()
  }

  try {
    const route = location.hash.replace(/^#\/?/, '')
    const api = /^(agents(\/[^?]*)?)?$/.test(route) ? window.agentDesk : undefined
    const reads: [EarlyKey, EarlyRead<unknown> | undefined][] = [
      [SESSION_KEY, api?.early?.(SESSION_KEY)],
      [LIST_KEY, api?.early?.(LIST_KEY)]
    ]
    for (const [key, read] of reads) if (read) handed.set(key, read)
    if (reads.some(([, read]) => !read)) {
      startApp()
      return
    }
    const late = setTimeout(startApp, WAIT_MS)
    void Promise.all(
      reads.map(([key, read]) => {
        if (!read || 'value' in read) return read?.value
        return read.promise.then(
          (value) => {
            // Not taken yet: the app gets it settled, so its first render shows it.
            if (handed.get(key) === read) handed.set(key, { value })
            return value
          },
          () => {
            // Failed: dropped, so the app asks again and reports what goes wrong (as the preload does).
            if (handed.get(key) === read) handed.delete(key)
            return undefined
          }
        )
      })
    ).then(([session, list]) => {
      clearTimeout(late)
      // Only for a signed-in user (a session that ended shows the sign-in screen instead).
      if ((session as Partial<SessionState> | null)?.status === 'signedIn') show(list)
      else startApp()
    })
  } catch {
    handle.end()
    startApp()
  }
})()
