/**
 * The application menu's commands that reach the renderer (main → renderer event `menu.command`).
 * Items the main process handles itself (roles, Help links, Quit, …) are not listed here.
 * No zod here on purpose: the renderer's app shell checks the payload, and its entry stays small.
 */
export const MENU_COMMANDS = [
  'new.agent',
  'new.document',
  'new.tool',
  'new.prompt',
  'new.tag',
  'new.here',
  'transfer.export',
  'transfer.import',
  'palette.open',
  'shortcuts.open',
  'go.agents',
  'go.documents',
  'go.tools',
  'go.prompts',
  'go.tags',
  'go.api-tokens',
  'go.outbox',
  'go.settings',
  'app.settings',
  'app.about',
  'theme.system',
  'theme.light',
  'theme.dark'
] as const
export type MenuCommand = (typeof MENU_COMMANDS)[number]

/** The payload of `menu.command`. */
export interface MenuCommandEvent {
  command: MenuCommand
}

export const isMenuCommand = (v: unknown): v is MenuCommand =>
  typeof v === 'string' && (MENU_COMMANDS as readonly string[]).includes(v)

/** The check the renderer makes before it acts on an event (exactly `{ command }`, a known one). */
export function isMenuCommandEvent(v: unknown): v is MenuCommandEvent {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false
  const keys = Object.keys(v)
  return keys.length === 1 && keys[0] === 'command' && isMenuCommand((v as { command: unknown }).command)
}
