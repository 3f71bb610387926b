/**
 * Electron adapter: registers one `ipcMain.handle` per channel of the IPC table (no generic
 * "invoke anything"), answers only the app's own page, and relays core events to the windows.
 */
import { BrowserWindow, ipcMain, type IpcMainInvokeEvent } from 'electron'
import { CHANNELS, wireChannel, wireEvent, type IpcReply } from '../../shared/ipc'
import type { Core } from '../core'
import { isTrustedSender } from '../security'

export function registerIpc(core: Core, appUrl: string): () => void {
  for (const channel of CHANNELS) {
    ipcMain.handle(
      wireChannel(channel),
      async (e: IpcMainInvokeEvent, input: unknown, callId?: unknown): Promise<IpcReply<unknown>> => {
        const frameUrl = e.senderFrame?.url
        if (!isTrustedSender(frameUrl, appUrl)) {
          return { ok: false, error: { kind: 'forbidden', message: 'This page may not use Agent Desk.' } }
        }
        return core.invoke(channel, input, callId)
      }
    )
  }
  const unsubscribe = core.subscribe((event, payload) => {
    for (const win of BrowserWindow.getAllWindows()) {
      if (win.isDestroyed() || win.webContents.isDestroyed()) continue
      if (!isTrustedSender(win.webContents.getURL(), appUrl)) continue
      win.webContents.send(wireEvent(event), payload)
    }
  })
  return () => {
    unsubscribe()
    for (const channel of CHANNELS) ipcMain.removeHandler(wireChannel(channel))
  }
}
