/**
 * Main → renderer events: the IPC contract's second small table (./ipc.ts holds the first).
 */
import type { SettingsState } from './settings'
import type { MenuCommandEvent } from './menu'
import type { Connectivity, OutboxEntry, SessionState } from './results'

export interface IpcEvents {
  'session.changed': SessionState
  'connectivity.changed': Connectivity
  'outbox.changed': OutboxEntry[]
  /** A resource changed in main (outbox replay, revalidation): stores refetch it. */
  'data.changed': { resource: string }
  /** An application-menu item was chosen (see ./menu): the renderer acts on it. */
  'menu.command': MenuCommandEvent
  'settings.changed': SettingsState
  /** Main asks the window to show a route (e.g. a notification about the outbox was clicked). */
  navigate: { route: string }
}
export type EventName = keyof IpcEvents
export const EVENT_NAMES: EventName[] = [
  'session.changed',
  'connectivity.changed',
  'outbox.changed',
  'data.changed',
  'menu.command',
  'settings.changed',
  'navigate'
]
export const wireEvent = (e: EventName) => `agent-desk-event:${e}`
