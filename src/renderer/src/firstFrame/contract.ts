/**
 * What the first frame (`shell.ts`, a classic script that runs before the app's code) and the app
 * share: the layout the app remembers for it, and the handle it leaves on `window`.
 */
import type { EarlyKey, EarlyRead } from '../../../shared/ipc'

/** localStorage key of the layout below. */
export const FIRST_FRAME_LAYOUT_KEY = 'agent-desk:first-frame'

/**
 * Where the agents list stood when it was last shown (px, from the window's top left), so the
 * next start's first frame draws its rows where the app will. Written by the app after its list is
 * painted; without it, the first frame uses the layout's defaults.
 */
export interface FirstFrameLayout {
  v: 1
  /** The window's inner width then (the panes' widths depend on it). */
  width: number
  /** Sidebar width. */
  nav: number
  /** Top bar height (with its border). */
  top: number
  /** The list pane: left edge and width (with its right border). */
  pane: { x: number; w: number }
  /** The first row's box, and the distance from one row to the next. */
  rows: { x: number; y: number; w: number; pitch: number }
}

/** What the first frame leaves on `window.agentDeskFirstFrame` while the app starts. */
export interface FirstFrameHandle {
  /** The early read the first frame took (once), settled when it painted from it. */
  take(key: EarlyKey): EarlyRead<unknown> | undefined
  /** Takes the first frame off the screen (the app's own view is there). */
  end(): void
}

declare global {
  interface Window {
    agentDeskFirstFrame?: FirstFrameHandle
  }
}
