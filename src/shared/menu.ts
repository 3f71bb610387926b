/**
 * The application menu's commands that reach the renderer (main → renderer event `menu.command`).
 * Items the main process handles itself (roles, Help links, Quit, …) are not listed here.
 */
import { z } from 'zod'

export const MENU_COMMANDS = [
  'new.agent',
  'new.document',
  'new.tool',
  'new.prompt',
  'new.tag',
  'app.settings',
  'app.about',
  'theme.system',
  'theme.light',
  'theme.dark'
] as const
export type MenuCommand = (typeof MENU_COMMANDS)[number]

/** The payload of `menu.command`, checked by the renderer before it acts. */
export const MenuCommandEvent = z.object({ command: z.enum(MENU_COMMANDS) }).strict()
export type MenuCommandEvent = z.infer<typeof MenuCommandEvent>

export const isMenuCommand = (v: unknown): v is MenuCommand =>
  typeof v === 'string' && (MENU_COMMANDS as readonly string[]).includes(v)
