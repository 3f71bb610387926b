/**
 * What the command palette offers: the app's commands (go to a view, new …, theme, sign out,
 * switch profile, reconnect, shortcuts) and every cached item (from `palette.items`), as entries
 * the shared fuzzy matcher ranks. Commands are written once here; adding one (e.g. an export) is
 * one entry in `COMMANDS`.
 */
import type { Router } from 'vue-router'
import { rankable, type Rankable } from '../../../../shared/fuzzy'
import type { PaletteItem, PaletteKind } from '../../../../shared/palette'
import { SHORTCUTS, VIEW_ORDER, type Shortcut, type ViewId } from '../../../../shared/shortcuts'
import type { MenuCommand } from '../../../../shared/menu'
import { runMenuCommand, signOutRequested } from '../../composables/useMenuCommands'
import { VIEW_MESSAGE } from '../../navigation'
import { useSessionStore } from '../../stores/session'

export type EntryKind = PaletteKind | 'command'

export interface PaletteEntry extends Rankable {
  kind: EntryKind
  /** Unique among entries (`command:go.tools`, `agents:<id>`). */
  key: string
  /** The shortcut that does the same, when there is one (`Mod+1`). */
  keys?: string
  run(router: Router): void | Promise<void>
}

/** Where an item opens. */
const ITEM_PATH: Record<PaletteKind, (id: string) => string> = {
  agents: (id) => `/agents/${encodeURIComponent(id)}`,
  documents: (id) => `/documents/${encodeURIComponent(id)}`,
  tools: (id) => `/tools/${encodeURIComponent(id)}`,
  prompts: (id) => `/prompts/${encodeURIComponent(id)}`,
  tags: () => '/tags',
  apiTokens: (id) => `/api-tokens/${encodeURIComponent(id)}`
}

type Translate = (key: string, named?: Record<string, unknown>) => string

const goTo = (t: Translate, v: ViewId) => t('palette.goTo', { view: t(VIEW_MESSAGE[v]) })

/** What a shortcut does, in words (the cheat-sheet's rows). */
export function shortcutTitle(s: Shortcut, t: Translate): string {
  const view = VIEW_ORDER.find((v) => s.id === `go.${v}`)
  return view ? goTo(t, view) : t(`shortcuts.${s.id}`)
}

interface CommandSpec {
  id: string
  /** Its title: a message key, with the view's name for go.* */
  title: (t: Translate) => string
  menu?: MenuCommand
  run?: (router: Router) => void | Promise<void>
}

const menuCommand = (id: MenuCommand, title: string): CommandSpec => ({
  id,
  title: (t) => t(title),
  menu: id
})

const COMMANDS: CommandSpec[] = [
  ...VIEW_ORDER.map((v): CommandSpec => ({
    id: `go.${v}`,
    title: (t) => goTo(t, v),
    menu: `go.${v}` as MenuCommand
  })),
  menuCommand('new.agent', 'palette.newAgent'),
  menuCommand('new.document', 'palette.newDocument'),
  menuCommand('new.tool', 'palette.newTool'),
  menuCommand('new.prompt', 'palette.newPrompt'),
  menuCommand('new.tag', 'palette.newTag'),
  menuCommand('theme.light', 'palette.themeLight'),
  menuCommand('theme.dark', 'palette.themeDark'),
  menuCommand('theme.system', 'palette.themeSystem'),
  menuCommand('shortcuts.open', 'palette.shortcuts'),
  menuCommand('transfer.export', 'palette.export'),
  menuCommand('transfer.import', 'palette.import'),
  {
    id: 'session.switchProfile',
    title: (t) => t('palette.switchProfile'),
    run: (router) => void router.push('/signin')
  },
  {
    id: 'session.signOut',
    title: (t) => t('palette.signOut'),
    run: () => {
      signOutRequested.value = true
    }
  },
  {
    id: 'session.reconnect',
    title: (t) => t('palette.reconnect'),
    run: () =>
      void useSessionStore()
        .reconnect()
        .catch(() => undefined)
  }
]

/** The shortcut that runs a menu command, if one does (from the one shortcut table). */
const SHORTCUT_BY_COMMAND = new Map(
  SHORTCUTS.flatMap((s) => (s.command ? [[s.command, s.keys] as const] : []))
)
const keysFor = (menu: MenuCommand | undefined) => (menu ? SHORTCUT_BY_COMMAND.get(menu) : undefined)

export function commandEntries(t: Translate): PaletteEntry[] {
  return COMMANDS.map((c) => {
    const text = c.title(t)
    const keys = keysFor(c.menu)
    return {
      kind: 'command' as const,
      key: `command:${c.id}`,
      ...rankable(text),
      ...(keys ? { keys } : {}),
      run: (router: Router) => (c.menu ? runMenuCommand(c.menu, router) : c.run?.(router))
    }
  })
}

export function itemEntries(items: readonly PaletteItem[]): PaletteEntry[] {
  return items.map((i) => ({
    kind: i.kind,
    key: `${i.kind}:${i.id}`,
    ...rankable(i.name, i.description),
    run: (router: Router) => void router.push(ITEM_PATH[i.kind](i.id))
  }))
}
