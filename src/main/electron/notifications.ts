/**
 * Electron adapter: a native notification when queued changes fail to replay while the window is
 * hidden or minimised (the decision is ../desktop/notify); clicking it shows the window on the
 * Outbox.
 */
import { BrowserWindow, Notification } from 'electron'
import { wireEvent, type IpcEvents, type OutboxEntry } from '../../shared/ipc'
import type { Core } from '../core'
import { FailedReplayWatcher } from '../desktop/notify'

export function watchFailedReplays(core: Core, window: () => BrowserWindow | null): () => void {
  // Held until clicked or closed: a collected notification loses its click handler.
  const live = new Set<Notification>()
  const visible = () => {
    const w = window()
    return !!w && !w.isDestroyed() && w.isVisible() && !w.isMinimized()
  }
  const openOutbox = () => {
    const w = window()
    if (!w || w.isDestroyed()) return
    if (w.isMinimized()) w.restore()
    w.show()
    w.focus()
    const payload: IpcEvents['navigate'] = { route: '/outbox' }
    w.webContents.send(wireEvent('navigate'), payload)
  }
  const watcher = new FailedReplayWatcher(visible, (title, body) => {
    if (!Notification.isSupported()) return
    const n = new Notification({ title, body })
    live.add(n)
    n.on('click', () => {
      live.delete(n)
      openOutbox()
    })
    n.on('close', () => live.delete(n))
    n.show()
  })
  return core.subscribe((event, payload) => {
    if (event === 'outbox.changed') watcher.update(payload as OutboxEntry[])
  })
}
