/**
 * The keyboard shortcuts, one table for the whole app: the application menu takes its
 * accelerators from it (main), the renderer's key handler matches key presses against it, and the
 * cheat-sheet (Ctrl/Cmd+/) and tooltips show it. `Mod` is Cmd on macOS and Ctrl elsewhere.
 * Shortcuts with a `command` are also menu items; in Electron the menu catches their keys and
 * sends the command, in a browser the renderer's handler does (never both).
 */
import type { MenuCommand } from './menu'

export interface Shortcut {
  /** Stable id; also the renderer's message key (`shortcuts.<id>`). */
  id: string
  /** `Mod+K`, `Mod+Shift+A`, `Delete`, `ArrowDown`… (a `KeyboardEvent.key`, with modifiers). */
  keys: string
  /** A second key for the same action (`/` focuses the filter too). */
  alt?: string
  /** The menu command it runs, when it is one. */
  command?: MenuCommand
  /** Works while typing in a field too (Mod shortcuts); plain keys act only outside fields. */
  inFields?: boolean
  group: 'general' | 'lists' | 'views'
}

export const VIEW_ORDER = [
  'agents',
  'documents',
  'tools',
  'prompts',
  'tags',
  'api-tokens',
  'outbox',
  'settings'
] as const
export type ViewId = (typeof VIEW_ORDER)[number]

export const SHORTCUTS: readonly Shortcut[] = [
  { id: 'palette', keys: 'Mod+K', command: 'palette.open', inFields: true, group: 'general' },
  { id: 'cheatSheet', keys: 'Mod+/', command: 'shortcuts.open', inFields: true, group: 'general' },
  { id: 'newHere', keys: 'Mod+N', command: 'new.here', inFields: true, group: 'general' },
  { id: 'filter', keys: 'Mod+F', alt: '/', inFields: true, group: 'lists' },
  { id: 'up', keys: 'ArrowUp', group: 'lists' },
  { id: 'down', keys: 'ArrowDown', group: 'lists' },
  { id: 'open', keys: 'Enter', group: 'lists' },
  { id: 'delete', keys: 'Delete', group: 'lists' },
  { id: 'close', keys: 'Escape', group: 'lists' },
  ...VIEW_ORDER.map((view, i): Shortcut => ({
    id: `go.${view}`,
    keys: `Mod+${i + 1}`,
    command: `go.${view}` as MenuCommand,
    inFields: true,
    group: 'views'
  }))
]

export const shortcutById = (id: string): Shortcut | undefined => SHORTCUTS.find((s) => s.id === id)

/** Electron's accelerator for a key combination: `Mod` → `CmdOrCtrl`. */
export const accelerator = (keys: string): string => keys.replace(/^Mod\+/, 'CmdOrCtrl+')

const KEY_NAMES: Record<string, string> = { ArrowUp: '↑', ArrowDown: '↓', Escape: 'Esc' }

/** How a combination reads on this platform: `Ctrl+K` / `⌘K`, `↑`, `Esc`. */
export function keyLabel(keys: string, mac: boolean): string {
  const parts = keys.split('+').map((p) => (p === '' ? '+' : p))
  const key = parts.pop() ?? ''
  const name = KEY_NAMES[key] ?? (key.length === 1 ? key.toUpperCase() : key)
  const mods = parts.map((m) =>
    m === 'Mod' ? (mac ? '⌘' : 'Ctrl') : m === 'Shift' ? (mac ? '⇧' : 'Shift') : m
  )
  return mac ? `${mods.join('')}${name}` : [...mods, name].join('+')
}

/** What a key press needs to say to be matched (a subset of KeyboardEvent). */
export interface KeyPress {
  key: string
  ctrlKey: boolean
  metaKey: boolean
  shiftKey: boolean
  altKey: boolean
}

/** Whether the press is this combination (`Mod` = Cmd on macOS, Ctrl elsewhere; no other modifier). */
export function pressMatches(keys: string, e: KeyPress, mac: boolean): boolean {
  const parts = keys.split('+')
  const key = parts.pop() ?? ''
  const mod = parts.includes('Mod')
  const shift = parts.includes('Shift')
  const modDown = mac ? e.metaKey : e.ctrlKey
  const otherDown = mac ? e.ctrlKey : e.metaKey
  if (mod !== modDown || otherDown || e.altKey) return false
  // Shift is part of typing `/` or `?` on many layouts: only a required Shift is checked.
  if (shift && !e.shiftKey) return false
  if (!shift && e.shiftKey && key.length !== 1) return false
  return e.key.toLowerCase() === key.toLowerCase()
}

/** The shortcut a press means, if any (its main keys or its `alt`). */
export function shortcutFor(e: KeyPress, mac: boolean, inField: boolean): Shortcut | undefined {
  return SHORTCUTS.find(
    (s) =>
      (s.inFields || !inField) &&
      (pressMatches(s.keys, e, mac) || (!!s.alt && !inField && pressMatches(s.alt, e, mac)))
  )
}
