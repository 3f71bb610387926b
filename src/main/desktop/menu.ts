/**
 * The application menu as data: one pure function per platform shape, no electron import. The
 * Electron glue (../electron/menu.ts) turns the template into a Menu: `role` items are Electron's
 * own, `command` items are sent to the renderer as the `menu.command` event, and `url` items (Help)
 * open in the browser through externalOpenDecision.
 */
import type { MenuCommand } from '../../shared/menu'
import { accelerator, shortcutById, VIEW_ORDER } from '../../shared/shortcuts'

/** Electron roles the menu uses (the subset of MenuItemConstructorOptions['role']). */
export type MenuRole =
  | 'services'
  | 'hide'
  | 'hideOthers'
  | 'unhide'
  | 'quit'
  | 'close'
  | 'undo'
  | 'redo'
  | 'cut'
  | 'copy'
  | 'paste'
  | 'pasteAndMatchStyle'
  | 'delete'
  | 'selectAll'
  | 'reload'
  | 'forceReload'
  | 'toggleDevTools'
  | 'resetZoom'
  | 'zoomIn'
  | 'zoomOut'
  | 'togglefullscreen'
  | 'minimize'
  | 'zoom'
  | 'front'
  | 'window'
  | 'help'

/** Commands the main process carries out itself. */
export type MainCommand = 'help.documentation' | 'help.report'

/** Shaped like Electron's MenuItemConstructorOptions (the fields used here). */
export interface MenuItemSpec {
  id?: string
  label?: string
  type?: 'normal' | 'separator' | 'submenu'
  role?: MenuRole
  accelerator?: string
  /** An app action: sent to the renderer (MenuCommand) or done in main (MainCommand). */
  command?: MenuCommand | MainCommand
  /** The web page a MainCommand opens. */
  url?: string
  submenu?: MenuItemSpec[]
}

export interface MenuOptions {
  platform: NodeJS.Platform | string
  /** `electron-vite dev`: Reload, Force Reload and DevTools are in the View menu. */
  isDev: boolean
  appName: string
  links: { documentation: string; reportProblem: string }
}

/** Where Help's items lead (the project's home and its issue tracker). */
export const HELP_LINKS = {
  documentation: 'https://github.com/agent-desk/agent-desk#readme',
  reportProblem: 'https://github.com/agent-desk/agent-desk/issues/new'
} as const

const separator = (): MenuItemSpec => ({ type: 'separator' })

/** The accelerator of a shortcut of the app's one table (src/shared/shortcuts.ts). */
function keysOf(id: string): string {
  const s = shortcutById(id)
  if (!s) throw new Error(`No shortcut "${id}"`)
  return accelerator(s.keys)
}

const VIEW_LABELS: Record<(typeof VIEW_ORDER)[number], string> = {
  agents: 'Agents',
  documents: 'Documents',
  tools: 'Tools',
  prompts: 'Prompts',
  tags: 'Tags',
  'api-tokens': 'API Tokens',
  outbox: 'Outbox',
  settings: 'Settings'
}

/** Go: the app's views, Ctrl/Cmd+1 … 8 in the order of the sidebar. */
function goMenu(mac: boolean): MenuItemSpec {
  return {
    label: mac ? 'Go' : '&Go',
    submenu: VIEW_ORDER.map((v) => ({
      id: `go-${v}`,
      label: VIEW_LABELS[v],
      command: `go.${v}` as MenuCommand,
      accelerator: keysOf(`go.${v}`)
    }))
  }
}

function fileMenu(mac: boolean, o: MenuOptions): MenuItemSpec {
  const submenu: MenuItemSpec[] = [
    { id: 'new-here', label: 'New Item', command: 'new.here', accelerator: keysOf('newHere') },
    { id: 'new-agent', label: 'New Agent', command: 'new.agent', accelerator: 'CmdOrCtrl+Shift+A' },
    { id: 'new-document', label: 'New Document', command: 'new.document', accelerator: 'CmdOrCtrl+Shift+D' },
    { id: 'new-tool', label: 'New Tool', command: 'new.tool', accelerator: 'CmdOrCtrl+Shift+T' },
    { id: 'new-prompt', label: 'New Prompt', command: 'new.prompt', accelerator: 'CmdOrCtrl+Shift+P' },
    { id: 'new-tag', label: 'New Tag', command: 'new.tag', accelerator: 'CmdOrCtrl+Shift+G' },
    separator(),
    { id: 'export', label: 'Export…', command: 'transfer.export' },
    { id: 'import', label: 'Import…', command: 'transfer.import' },
    separator(),
    { label: 'Close Window', role: 'close', accelerator: 'CmdOrCtrl+W' }
  ]
  if (!mac) {
    submenu.push(
      separator(),
      { id: 'settings', label: 'Settings…', command: 'app.settings', accelerator: 'Ctrl+,' },
      separator(),
      // Windows closes with Alt+F4 (the system's own); Linux desktops use Ctrl+Q.
      o.platform === 'win32'
        ? { label: 'Exit', role: 'quit' }
        : { label: 'Quit', role: 'quit', accelerator: 'Ctrl+Q' }
    )
  }
  return { label: mac ? 'File' : '&File', submenu }
}

function editMenu(mac: boolean, o: MenuOptions): MenuItemSpec {
  return {
    label: mac ? 'Edit' : '&Edit',
    submenu: [
      { role: 'undo', accelerator: 'CmdOrCtrl+Z' },
      { role: 'redo', accelerator: o.platform === 'win32' ? 'Ctrl+Y' : 'Shift+CmdOrCtrl+Z' },
      separator(),
      { role: 'cut', accelerator: 'CmdOrCtrl+X' },
      { role: 'copy', accelerator: 'CmdOrCtrl+C' },
      { role: 'paste', accelerator: 'CmdOrCtrl+V' },
      ...(mac ? [{ role: 'pasteAndMatchStyle', accelerator: 'Shift+Alt+CmdOrCtrl+V' } as const] : []),
      { role: 'delete' },
      separator(),
      { role: 'selectAll', accelerator: 'CmdOrCtrl+A' }
    ]
  }
}

function viewMenu(mac: boolean, o: MenuOptions): MenuItemSpec {
  const dev: MenuItemSpec[] = o.isDev
    ? [
        { role: 'reload', accelerator: 'CmdOrCtrl+R' },
        { role: 'forceReload', accelerator: 'Shift+CmdOrCtrl+R' },
        { role: 'toggleDevTools', accelerator: mac ? 'Alt+Cmd+I' : 'Ctrl+Shift+I' },
        separator()
      ]
    : []
  return {
    label: mac ? 'View' : '&View',
    submenu: [
      { id: 'palette', label: 'Command Palette…', command: 'palette.open', accelerator: keysOf('palette') },
      {
        id: 'shortcuts',
        label: 'Keyboard Shortcuts',
        command: 'shortcuts.open',
        accelerator: keysOf('cheatSheet')
      },
      separator(),
      ...dev,
      { role: 'resetZoom', label: 'Actual Size', accelerator: 'CmdOrCtrl+0' },
      { role: 'zoomIn', accelerator: 'CmdOrCtrl+Plus' },
      { role: 'zoomOut', accelerator: 'CmdOrCtrl+-' },
      separator(),
      { role: 'togglefullscreen', accelerator: mac ? 'Ctrl+Cmd+F' : 'F11' },
      separator(),
      {
        label: 'Theme',
        submenu: [
          { id: 'theme-system', label: 'Match System', command: 'theme.system' },
          { id: 'theme-light', label: 'Light', command: 'theme.light' },
          { id: 'theme-dark', label: 'Dark', command: 'theme.dark' }
        ]
      }
    ]
  }
}

function windowMenu(mac: boolean): MenuItemSpec {
  return {
    label: mac ? 'Window' : '&Window',
    role: 'window',
    submenu: mac
      ? [{ role: 'minimize', accelerator: 'CmdOrCtrl+M' }, { role: 'zoom' }, separator(), { role: 'front' }]
      : [{ role: 'minimize', accelerator: 'CmdOrCtrl+M' }]
  }
}

function helpMenu(mac: boolean, o: MenuOptions): MenuItemSpec {
  const submenu: MenuItemSpec[] = [
    {
      id: 'documentation',
      label: 'Documentation',
      command: 'help.documentation',
      url: o.links.documentation
    },
    { id: 'report-problem', label: 'Report a Problem…', command: 'help.report', url: o.links.reportProblem }
  ]
  // On macOS, About is in the app menu.
  if (!mac) submenu.push(separator(), { id: 'about', label: `About ${o.appName}`, command: 'app.about' })
  return { label: mac ? 'Help' : '&Help', role: 'help', submenu }
}

function appMenu(o: MenuOptions): MenuItemSpec {
  // The first menu on macOS is the app menu (its title is the app's name whatever the label).
  return {
    label: o.appName,
    submenu: [
      { id: 'about', label: `About ${o.appName}`, command: 'app.about' },
      separator(),
      { id: 'settings', label: 'Settings…', command: 'app.settings', accelerator: 'Cmd+,' },
      separator(),
      { role: 'services' },
      separator(),
      { label: `Hide ${o.appName}`, role: 'hide', accelerator: 'Cmd+H' },
      { role: 'hideOthers', accelerator: 'Cmd+Alt+H' },
      { label: 'Show All', role: 'unhide' },
      separator(),
      { label: `Quit ${o.appName}`, role: 'quit', accelerator: 'Cmd+Q' }
    ]
  }
}

/** The whole menu bar for one platform. */
export function buildMenuTemplate(o: MenuOptions): MenuItemSpec[] {
  const mac = o.platform === 'darwin'
  return [
    ...(mac ? [appMenu(o)] : []),
    fileMenu(mac, o),
    editMenu(mac, o),
    viewMenu(mac, o),
    goMenu(mac),
    windowMenu(mac),
    helpMenu(mac, o)
  ]
}

/** Every item, depth first (submenus and their items). */
export function flattenMenu(items: MenuItemSpec[]): MenuItemSpec[] {
  return items.flatMap((i) => [i, ...(i.submenu ? flattenMenu(i.submenu) : [])])
}

/**
 * An accelerator in one spelling for comparison on `platform`: CmdOrCtrl is Cmd on macOS and
 * Ctrl elsewhere, modifier aliases folded, modifiers sorted ("Shift+CmdOrCtrl+Z" = "cmd+shift+z").
 */
export function normalizeAccelerator(accelerator: string, platform: string): string {
  const mac = platform === 'darwin'
  const alias: Record<string, string> = {
    cmdorctrl: mac ? 'cmd' : 'ctrl',
    commandorcontrol: mac ? 'cmd' : 'ctrl',
    cmd: 'cmd',
    command: 'cmd',
    super: 'cmd',
    meta: 'cmd',
    ctrl: 'ctrl',
    control: 'ctrl',
    alt: 'alt',
    option: 'alt',
    altgr: 'altgr',
    shift: 'shift'
  }
  const parts = accelerator.split('+').map((p) => p.trim().toLowerCase())
  // "CmdOrCtrl+Plus" and "CmdOrCtrl++" name the same key.
  const key = accelerator.endsWith('++') ? 'plus' : (parts.pop() ?? '')
  const mods = parts.filter((p) => p !== '').map((p) => alias[p] ?? p)
  return [...new Set(mods)]
    .sort()
    .concat(key === '=' ? 'plus' : key)
    .join('+')
}
