/**
 * The app's side of the first frame (`shell.ts`): ending it, and remembering where the agents list
 * stands so the next start's frame draws its rows there.
 */
import { FIRST_FRAME_LAYOUT_KEY, type FirstFrameLayout } from './contract'

/** Takes the first frame off the screen, if one is still there. */
export function endFirstFrame(): void {
  try {
    window.agentDeskFirstFrame?.end()
  } catch {
    // Nothing to end.
  }
}

const rect = (selector: string): DOMRect | null =>
  document.querySelector(selector)?.getBoundingClientRect() ?? null

/**
 * Measures the agents page as shown (sidebar, top bar, list pane, the rows' box) and keeps it for
 * the next start. Does nothing unless the agents list is on screen.
 */
export function rememberFirstFrameLayout(): void {
  const nav = rect('.shell__nav')
  const top = rect('.shell__top')
  const pane = rect('[data-pane=list]')
  const list = rect('[data-testid=agent-list]')
  const rows = document.querySelectorAll('[data-testid=agent-row]')
  const first = rows[0]
  if (!nav || !top || !pane || !list || !first) return
  const firstBox = first.getBoundingClientRect()
  const second = rows[1]?.getBoundingClientRect()
  const pitch = second
    ? second.top - firstBox.top
    : firstBox.height + parseFloat(getComputedStyle(first).marginBottom || '0')
  const layout: FirstFrameLayout = {
    v: 1,
    width: innerWidth,
    nav: nav.width,
    top: top.height,
    pane: { x: pane.left, w: pane.width },
    rows: { x: list.left, y: list.top, w: list.width, pitch: pitch > 0 ? pitch : firstBox.height }
  }
  try {
    localStorage.setItem(FIRST_FRAME_LAYOUT_KEY, JSON.stringify(layout))
  } catch {
    // No storage: the next first frame uses the defaults.
  }
}
