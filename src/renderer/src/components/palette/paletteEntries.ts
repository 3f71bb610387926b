/**
 * What the command palette offers: the app's commands (go to a view, new …, theme, sign out,
 * switch profile, reconnect, shortcuts) and every cached item (from `palette.items`), ranked by the
 * shared fuzzy matcher. Commands are written once here; adding one (e.g. an export) is one entry in
 * `COMMANDS`. Items stay in the columns main sent, indexed once a palette (`itemIndex`): an entry
 * is made only for an item the ranking keeps.
 */
import type { Router } from 'vue-router'
import { joinTexts, rank, rankIndex, textsAt, type RankIndex } from '../../../../shared/fuzzy'
import { kindAt, type PaletteKind, type PaletteNames } from '../../../../shared/palette'
import { SHORTCUTS, VIEW_ORDER, type Shortcut, type ViewId } from '../../../../shared/shortcuts'
import type { MenuCommand } from '../../../../shared/menu'
import { runMenuCommand, signOutRequested } from '../../composables/useMenuCommands'
import { VIEW_MESSAGE } from '../../navigation'
import { useSessionStore } from '../../stores/session'

export type EntryKind = PaletteKind | 'command'

export interface PaletteEntry {
  kind: EntryKind
  /** Unique among entries (`command:go.tools`, `agents:<id>`). */
  key: string
  /** Its name, or the command's title. */
  text: string
  /** The item's description, when it has one. */
  detail?: string
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
      text,
      ...(keys ? { keys } : {}),
      run: (router: Router) => (c.menu ? runMenuCommand(c.menu, router) : c.run?.(router))
    }
  })
}

/** Entries ready to rank: commands (a few dozen) as entries, each with its place in the index. */
export interface CommandIndex {
  entries: PaletteEntry[]
  index: RankIndex
}

export function commandIndex(entries: PaletteEntry[]): CommandIndex {
  return { entries, index: rankIndex(joinTexts(entries.map((e) => e.text))) }
}

/** The cached items as main sent them, indexed to rank (once a palette). */
export interface ItemIndex {
  items: PaletteNames
  index: RankIndex
}

export const itemIndex = (items: PaletteNames): ItemIndex => ({
  items,
  index: rankIndex(items.names, items.descriptions)
})

/** The i-th item as an entry. */
function itemEntry({ items, index }: ItemIndex, i: number): PaletteEntry {
  const kind = kindAt(items, i)
  const id = items.ids[i] ?? ''
  const { text, detail } = textsAt(index, i)
  return {
    kind,
    key: `${kind}:${id}`,
    text,
    ...(detail ? { detail } : {}),
    run: (router: Router) => void router.push(ITEM_PATH[kind](id))
  }
}

/**
 * The best `limit` entries for `query`: commands and items ranked alike (each ranked on its own,
 * then merged; among equal scores commands come first, then items, each in its own order).
 */
export function paletteResults(
  query: string,
  commands: CommandIndex,
  items: ItemIndex | null,
  limit: number
): PaletteEntry[] {
  const found = [
    ...rank(query, commands.index, limit).map((r) => ({
      score: r.score,
      entry: () => commands.entries[r.index]
    })),
    ...(items
      ? rank(query, items.index, limit).map((r) => ({
          score: r.score,
          entry: () => itemEntry(items, r.index)
        }))
      : [])
  ]
  return found
    .sort((a, b) => b.score - a.score) // stable
    .slice(0, limit)
    .flatMap((f) => f.entry() ?? [])
}
