/**
 * The preload: exposes `window.agentDesk`, a typed function per channel of the ONE IPC table.
 * No generic "invoke anything": the channel list is fixed here at build time and main checks it again.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import {
  CHANNELS,
  EVENT_NAMES,
  buildDeskApi,
  wireChannel,
  wireEvent,
  type Channel,
  type EventName
} from '../shared/ipc'

const api = buildDeskApi(
  CHANNELS,
  EVENT_NAMES,
  // The optional call id travels beside the input; main checks it (see `calls.cancel`).
  (channel, input, callId) =>
    callId === undefined
      ? ipcRenderer.invoke(wireChannel(channel as Channel), input)
      : ipcRenderer.invoke(wireChannel(channel as Channel), input, callId),
  (event, listener) => {
    const wrapped = (_e: IpcRendererEvent, payload: unknown) => listener(payload)
    const wire = wireEvent(event as EventName)
    ipcRenderer.on(wire, wrapped)
    return () => ipcRenderer.removeListener(wire, wrapped)
  },
  // The session and the opening list are asked for now, while the page's code loads.
  typeof location !== 'undefined' ? location.hash : undefined
)

contextBridge.exposeInMainWorld('agentDesk', api)
