/**
 * Electron adapter for the window state (../desktop/windowState): where the window opens, and
 * saving its place as it moves and resizes (debounced) and when it closes.
 */
import { screen, type BrowserWindow } from 'electron'
import {
  loadWindowState,
  placeWindow,
  saveWindowState,
  WINDOW_SIZES,
  type Placement
} from '../desktop/windowState'

const SAVE_AFTER_MS = 500

export function windowPlacement(userDataDir: string): Placement {
  const primaryId = screen.getPrimaryDisplay().id
  const displays = screen.getAllDisplays().map((d) => ({ workArea: d.workArea, primary: d.id === primaryId }))
  return placeWindow(loadWindowState(userDataDir), displays, WINDOW_SIZES)
}

/** Keeps the window's place in `userDataDir` from now on. */
export function keepWindowState(win: BrowserWindow, userDataDir: string): void {
  let timer: NodeJS.Timeout | null = null
  const save = () => {
    if (timer) clearTimeout(timer)
    timer = null
    if (win.isDestroyed() || win.isMinimized() || win.isFullScreen()) return
    try {
      // The normal bounds: a maximised window comes back maximised over the place it had before.
      saveWindowState(userDataDir, { ...win.getNormalBounds(), maximized: win.isMaximized() })
    } catch (e) {
      console.warn('[agent-desk] could not save the window state', e)
    }
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
