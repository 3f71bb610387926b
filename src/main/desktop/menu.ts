/**
 * The application menu as data: one pure function per platform shape, no electron import. The
 * Electron glue (../electron/menu.ts) turns the template into a Menu: `role` items are Electron's
 * own, `command` items are sent to the renderer as the `menu.command` event, and `url` items (Help)
 * open in the browser through externalOpenDecision.
 */
import type { MenuCommand } from '../../shared/menu'
import { accelerator, shortcutById, VIEW_ORDER } from '../../shared/shortcuts'
import { MENU_TEXT, type MenuLanguage, type MenuText } from './menuText'

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
  /** The app's language (the setting, or the system's when the app has it). Default English. */
  language?: MenuLanguage
}

/** Where Help's items lead (the project's home and its issue tracker). */
export const HELP_LINKS = {
  documentation: 'https://github.com/agent-desk/agent-desk#readme',
  reportProblem: 'https://github.com/agent-desk/agent-desk/issues/new'
} as const

const separator = (): MenuItemSpec => ({ type: 'separator' })
/** A menu's title: its `&` mnemonic is for Windows and Linux only. */
const title = (mac: boolean, label: string) => (mac ? label.replace('&', '') : label)

/** The accelerator of a shortcut of the app's one table (src/shared/shortcuts.ts). */
function keysOf(id: string): string {
  const s = shortcutById(id)
  if (!s) throw new Error(`No shortcut "${id}"`)
  return accelerator(s.keys)
}

/** Go: the app's views, Ctrl/Cmd+1 … 8 in the order of the sidebar. */
function goMenu(mac: boolean, t: MenuText): MenuItemSpec {
  return {
    label: title(mac, t.go),
    submenu: VIEW_ORDER.map((v) => ({
      id: `go-${v}`,
      label: t.views[v],
      command: `go.${v}` as MenuCommand,
      accelerator: keysOf(`go.${v}`)
    }))
  }
}

function fileMenu(mac: boolean, o: MenuOptions, t: MenuText): MenuItemSpec {
  const submenu: MenuItemSpec[] = [
    { id: 'new-here', label: t.newHere, command: 'new.here', accelerator: keysOf('newHere') },
    { id: 'new-agent', label: t.newAgent, command: 'new.agent', accelerator: 'CmdOrCtrl+Shift+A' },
    { id: 'new-document', label: t.newDocument, command: 'new.document', accelerator: 'CmdOrCtrl+Shift+D' },
    { id: 'new-tool', label: t.newTool, command: 'new.tool', accelerator: 'CmdOrCtrl+Shift+T' },
    { id: 'new-prompt', label: t.newPrompt, command: 'new.prompt', accelerator: 'CmdOrCtrl+Shift+P' },
    { id: 'new-tag', label: t.newTag, command: 'new.tag', accelerator: 'CmdOrCtrl+Shift+G' },
    separator(),
    { id: 'export', label: t.export, command: 'transfer.export' },
    { id: 'import', label: t.import, command: 'transfer.import' },
    separator(),
    { label: t.closeWindow, role: 'close', accelerator: 'CmdOrCtrl+W' }
  ]
  if (!mac) {
    submenu.push(
      separator(),
      { id: 'settings', label: t.settings, command: 'app.settings', accelerator: 'Ctrl+,' },
      separator(),
      // Windows closes with Alt+F4 (the system's own); Linux desktops use Ctrl+Q.
      o.platform === 'win32'
        ? { label: t.exit, role: 'quit' }
        : { label: t.quit, role: 'quit', accelerator: 'Ctrl+Q' }
    )
  }
  return { label: title(mac, t.file), submenu }
}

function editMenu(mac: boolean, o: MenuOptions, t: MenuText): MenuItemSpec {
  return {
    label: title(mac, t.edit),
    submenu: [
      { role: 'undo', label: t.undo, accelerator: 'CmdOrCtrl+Z' },
      { role: 'redo', label: t.redo, accelerator: o.platform === 'win32' ? 'Ctrl+Y' : 'Shift+CmdOrCtrl+Z' },
      separator(),
      { role: 'cut', label: t.cut, accelerator: 'CmdOrCtrl+X' },
      { role: 'copy', label: t.copy, accelerator: 'CmdOrCtrl+C' },
      { role: 'paste', label: t.paste, accelerator: 'CmdOrCtrl+V' },
      ...(mac
        ? [
            {
              role: 'pasteAndMatchStyle',
              label: t.pasteAndMatchStyle,
              accelerator: 'Shift+Alt+CmdOrCtrl+V'
            } as const
          ]
        : []),
      { role: 'delete', label: t.delete },
      separator(),
      { role: 'selectAll', label: t.selectAll, accelerator: 'CmdOrCtrl+A' }
    ]
  }
}

function viewMenu(mac: boolean, o: MenuOptions, t: MenuText): MenuItemSpec {
  const dev: MenuItemSpec[] = o.isDev
    ? [
        { role: 'reload', label: t.reload, accelerator: 'CmdOrCtrl+R' },
        { role: 'forceReload', label: t.forceReload, accelerator: 'Shift+CmdOrCtrl+R' },
        { role: 'toggleDevTools', label: t.devTools, accelerator: mac ? 'Alt+Cmd+I' : 'Ctrl+Shift+I' },
        separator()
      ]
    : []
  return {
    label: title(mac, t.view),
    submenu: [
      { id: 'palette', label: t.palette, command: 'palette.open', accelerator: keysOf('palette') },
      {
        id: 'shortcuts',
        label: t.shortcuts,
        command: 'shortcuts.open',
        accelerator: keysOf('cheatSheet')
      },
      separator(),
      ...dev,
      { role: 'resetZoom', label: t.actualSize, accelerator: 'CmdOrCtrl+0' },
      { role: 'zoomIn', label: t.zoomIn, accelerator: 'CmdOrCtrl+Plus' },
      { role: 'zoomOut', label: t.zoomOut, accelerator: 'CmdOrCtrl+-' },
      separator(),
      { role: 'togglefullscreen', label: t.fullScreen, accelerator: mac ? 'Ctrl+Cmd+F' : 'F11' },
      separator(),
      {
        label: t.theme,
        submenu: [
          { id: 'theme-system', label: t.themeSystem, command: 'theme.system' },
          { id: 'theme-light', label: t.themeLight, command: 'theme.light' },
          { id: 'theme-dark', label: t.themeDark, command: 'theme.dark' }
        ]
      }
    ]
  }
}

function windowMenu(mac: boolean, t: MenuText): MenuItemSpec {
  return {
    label: title(mac, t.window),
    role: 'window',
    submenu: mac
      ? [
          { role: 'minimize', label: t.minimize, accelerator: 'CmdOrCtrl+M' },
          { role: 'zoom', label: t.zoom },
          separator(),
          { role: 'front', label: t.front }
        ]
      : [{ role: 'minimize', label: t.minimize, accelerator: 'CmdOrCtrl+M' }]
  }
}

function helpMenu(mac: boolean, o: MenuOptions, t: MenuText): MenuItemSpec {
  const submenu: MenuItemSpec[] = [
    {
      id: 'documentation',
      label: t.documentation,
      command: 'help.documentation',
      url: o.links.documentation
    },
    { id: 'report-problem', label: t.reportProblem, command: 'help.report', url: o.links.reportProblem }
  ]
  // On macOS, About is in the app menu.
  if (!mac) submenu.push(separator(), { id: 'about', label: t.about(o.appName), command: 'app.about' })
  return { label: title(mac, t.help), role: 'help', submenu }
}

function appMenu(o: MenuOptions, t: MenuText): MenuItemSpec {
  // The first menu on macOS is the app menu (its title is the app's name whatever the label).
  return {
    label: o.appName,
    submenu: [
      { id: 'about', label: t.about(o.appName), command: 'app.about' },
      separator(),
      { id: 'settings', label: t.settings, command: 'app.settings', accelerator: 'Cmd+,' },
      separator(),
      { role: 'services', label: t.services },
      separator(),
      { label: t.hide(o.appName), role: 'hide', accelerator: 'Cmd+H' },
      { role: 'hideOthers', label: t.hideOthers, accelerator: 'Cmd+Alt+H' },
      { label: t.showAll, role: 'unhide' },
      separator(),
      { label: t.quitApp(o.appName), role: 'quit', accelerator: 'Cmd+Q' }
    ]
  }
}

/** The whole menu bar for one platform. */
export function buildMenuTemplate(o: MenuOptions): MenuItemSpec[] {
  const mac = o.platform === 'darwin'
  const t = MENU_TEXT[o.language ?? 'en']
  return [
    ...(mac ? [appMenu(o, t)] : []),
    fileMenu(mac, o, t),
    editMenu(mac, o, t),
    viewMenu(mac, o, t),
    goMenu(mac, t),
    windowMenu(mac, t),
    helpMenu(mac, o, t)
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
