/**
 * Electron adapter for the window state (../desktop/windowState): where the window opens, and
 * saving its place as it moves and resizes (debounced) and when it closes. The file is written off
 * the event loop; the app waits for that write before it exits (app.ts, `will-quit`).
 */
import { screen, type BrowserWindow } from 'electron'
import {
  loadWindowState,
  placeWindow,
  WINDOW_SIZES,
  type Placement,
  type WindowStateFile
} from '../desktop/windowState'

const SAVE_AFTER_MS = 500

export function windowPlacement(userDataDir: string): Placement {
  const primaryId = screen.getPrimaryDisplay().id
  const displays = screen.getAllDisplays().map((d) => ({ workArea: d.workArea, primary: d.id === primaryId }))
  return placeWindow(loadWindowState(userDataDir), displays, WINDOW_SIZES)
}

/** Keeps the window's place in `file` from now on. */
export function keepWindowState(win: BrowserWindow, file: WindowStateFile): void {
  let timer: NodeJS.Timeout | null = null
  const save = () => {
    if (timer) clearTimeout(timer)
    timer = null
    if (win.isDestroyed() || win.isMinimized() || win.isFullScreen()) return
    // The normal bounds: a maximised window comes back maximised over the place it had before.
    file.save({ ...win.getNormalBounds(), maximized: win.isMaximized() })
    file.saved().catch((e: unknown) => console.warn('[agent-desk] could not save the window state', e))
  }
  const later = () => {
    if (timer) clearTimeout(timer)
    timer = setTimeout(save, SAVE_AFTER_MS)
  }
  win.on('resize', later)
  win.on('move', later)
  win.on('maximize', later)
  win.on('unmaximize', later)
  win.on('close', save)
}
