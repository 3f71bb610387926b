/**
 * What the first view does not need — toasts and dialogs (FeedbackHost), the list filters' select —
 * loads once the start has settled: just after the first list is painted, or after a moment on a
 * screen without a list, or at once when something asks for it earlier (an error toast during the
 * start). Fetched and compiled during the start, those chunks made the first paint later, not
 * sooner (bench, same sitting: first start 2.9–3.1× the floor before the split, 3.3–3.4× with the
 * chunks loading at mount).
 */
import { endFirstFrame } from '../firstFrame'

const SCREEN_WITHOUT_LIST_MS = 1500

let open: () => void = () => undefined
const settled = new Promise<void>((resolve) => (open = resolve))
let opened = false

function openNow(): void {
  if (opened) return
  opened = true
  // The app's first view has settled: a first frame still drawn (firstFrame/shell.ts) goes.
  endFirstFrame()
  open()
}

/** Resolves when the start has settled (see above). */
export const afterStart = (): Promise<void> => settled

/** Something needs the deferred code now. */
export const needNow = openNow

/** How long deferred work waits for an idle moment at most (ms). */
const IDLE_WAIT_MS = 500

/**
 * Runs `fn` once the next frame is painted (the frame that shows what was just applied) and the
 * page is idle: deferred work then yields to whatever the page has queued meanwhile (input, the
 * next frame) instead of running ahead of it, and runs after IDLE_WAIT_MS at the latest.
 */
export function afterNextPaint(fn: () => void): void {
  const whenIdle = () =>
    typeof requestIdleCallback === 'function'
      ? requestIdleCallback(() => fn(), { timeout: IDLE_WAIT_MS })
      : setTimeout(fn, 0)
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => whenIdle())
  else whenIdle()
}

/** The first list has been applied: open after the frame that shows it. */
export function listShown(): void {
  if (!opened) afterNextPaint(openNow)
}

setTimeout(openNow, SCREEN_WITHOUT_LIST_MS)
