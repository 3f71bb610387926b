/**
 * The window's size, position and maximised state between runs: kept as JSON in the user-data
 * folder (written atomically and off main's event loop, ../atomicFile; a missing or damaged file
 * means "no saved state"), and put back on a display that is there now (plain Node; the Electron
 * glue is ../electron/windowState.ts).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { AtomicFile } from '../atomicFile'

export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

export interface WindowState extends Rect {
  maximized: boolean
}

/** A display as Electron's screen module describes it (the part used here). */
export interface DisplayInfo {
  /** The display minus the taskbar, dock and menu bar. */
  workArea: Rect
  primary?: boolean
}

export interface WindowSizes {
  width: number
  height: number
  minWidth: number
  minHeight: number
}

export const WINDOW_SIZES: WindowSizes = { width: 1280, height: 820, minWidth: 880, minHeight: 560 }
export const WINDOW_STATE_FILE = 'window-state.json'

/** The strip at the top of a window that must stay reachable to move it. */
const TITLE_BAR = 32
/** How much of the title bar must be on a display's work area: wide enough to grab. */
const MIN_VISIBLE_WIDTH = 160
const MIN_VISIBLE_HEIGHT = 20
/** Coordinates beyond this are not a real desktop (a corrupt or hand-edited file). */
const LIMIT = 100_000

const isCoord = (v: unknown): v is number =>
  typeof v === 'number' && Number.isFinite(v) && Math.abs(v) < LIMIT
const isSize = (v: unknown): v is number => isCoord(v) && v > 0

/** A saved state, or null when `raw` is not one. */
export function parseWindowState(raw: unknown): WindowState | null {
  if (typeof raw !== 'object' || raw === null) return null
  const r = raw as Record<string, unknown>
  if (!isCoord(r.x) || !isCoord(r.y) || !isSize(r.width) || !isSize(r.height)) return null
  return {
    x: Math.round(r.x),
    y: Math.round(r.y),
    width: Math.round(r.width),
    height: Math.round(r.height),
    maximized: r.maximized === true
  }
}

/** The saved state in `dir`, or null: none yet, unreadable, not JSON, or not a window state. */
export function loadWindowState(dir: string): WindowState | null {
  try {
    return parseWindowState(JSON.parse(readFileSync(join(dir, WINDOW_STATE_FILE), 'utf8')))
  } catch {
    return null
  }
}

/**
 * The file the window's place is saved to: `save()` returns at once and the file is written after
 * (the latest state when saves come faster than writes); `saved()` tells when it is in the file.
 */
export class WindowStateFile {
  private latest: WindowState | null = null
  private readonly out: AtomicFile

  constructor(dir: string) {
    this.out = new AtomicFile(join(dir, WINDOW_STATE_FILE), () => `${JSON.stringify(this.latest, null, 2)}\n`)
  }

  /** What is not a window state (NaN, a size of 0) is ignored, not written. */
  save(state: WindowState): void {
    const valid = parseWindowState(state)
    if (!valid) return
    this.latest = valid
    this.out.save()
  }

  saved(): Promise<void> {
    return this.out.saved()
  }
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y))
  }
}

/** True when enough of the window's title bar lies on `area` to grab it. */
function titleBarOn(bounds: Rect, area: Rect): boolean {
  const o = overlap({ x: bounds.x, y: bounds.y, width: bounds.width, height: TITLE_BAR }, area)
  return o.width >= Math.min(MIN_VISIBLE_WIDTH, bounds.width) && o.height >= MIN_VISIBLE_HEIGHT
}

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(v, hi))

/** The size clamped to the work area, never below the window's minimum. */
function fit(width: number, height: number, area: Rect, sizes: WindowSizes) {
  return {
    width: Math.max(sizes.minWidth, Math.min(width, area.width)),
    height: Math.max(sizes.minHeight, Math.min(height, area.height))
  }
}

function centred(width: number, height: number, area: Rect, sizes: WindowSizes): Rect {
  const s = fit(width, height, area, sizes)
  return {
    x: Math.round(area.x + (area.width - s.width) / 2),
    y: Math.round(area.y + Math.max(0, (area.height - s.height) / 2)),
    ...s
  }
}

export interface Placement {
  /** Where to open the window; with no display known, only the size. */
  bounds: Rect | { width: number; height: number }
  maximized: boolean
}

/**
 * Where the window opens: where it was when enough of its title bar is on a display's work area
 * now (shrunk to that work area if it has become smaller, and then moved inside it); otherwise
 * centred on the primary display. Never smaller than the minimum size.
 */
export function placeWindow(
  saved: WindowState | null,
  displays: DisplayInfo[],
  sizes: WindowSizes = WINDOW_SIZES
): Placement {
  const primary = displays.find((d) => d.primary) ?? displays[0]
  const maximized = saved?.maximized === true
  if (!primary) {
    const width = Math.max(sizes.minWidth, saved?.width ?? sizes.width)
    const height = Math.max(sizes.minHeight, saved?.height ?? sizes.height)
    return { bounds: { width, height }, maximized }
  }
  if (!saved) return { bounds: centred(sizes.width, sizes.height, primary.workArea, sizes), maximized: false }

  const home = displays.find((d) => titleBarOn(saved, d.workArea))
  if (!home) {
    return { bounds: centred(saved.width, saved.height, primary.workArea, sizes), maximized }
  }
  const area = home.workArea
  const size = fit(saved.width, saved.height, area, sizes)
  if (size.width === saved.width && size.height === saved.height) {
    return { bounds: { x: saved.x, y: saved.y, ...size }, maximized }
  }
  // The display has shrunk: the smaller window is moved inside it.
  return {
    bounds: {
      x: clamp(saved.x, area.x, area.x + area.width - size.width),
      y: clamp(saved.y, area.y, area.y + area.height - size.height),
      ...size
    },
    maximized
  }
}
