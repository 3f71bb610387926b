/**
 * Electron adapter for the application menu: the template from ../desktop/menu, with a click
 * handler per app action. Renderer commands go to the app's own window as the `menu.command`
 * event; Help links open in the browser through externalOpenDecision.
 */
import { app, BrowserWindow, Menu, shell, type MenuItemConstructorOptions } from 'electron'
import { wireEvent, type IpcEvents } from '../../shared/ipc'
import { isMenuCommand, type MenuCommand } from '../../shared/menu'
import { buildMenuTemplate, HELP_LINKS, type MenuItemSpec } from '../desktop/menu'
import type { MenuLanguage } from '../desktop/menuText'
import { externalOpenDecision, isTrustedSender } from '../security'

export interface MenuWiring {
  isDev: boolean
  appUrl: string
  /** The window a command is for (created again on macOS when all were closed). */
  window: () => BrowserWindow | null
  /** The app's language now (the menu is built again when it changes). */
  language: () => MenuLanguage
}

function send(w: MenuWiring, command: MenuCommand): void {
  const win = w.window()
  if (!win || win.isDestroyed() || win.webContents.isDestroyed()) return
  if (!isTrustedSender(win.webContents.getURL(), w.appUrl)) return
  const payload: IpcEvents['menu.command'] = { command }
  win.webContents.send(wireEvent('menu.command'), payload)
  if (win.isMinimized()) win.restore()
  win.focus()
}

function toElectron(item: MenuItemSpec, w: MenuWiring): MenuItemConstructorOptions {
  const { command, url, submenu, ...rest } = item
  const out: MenuItemConstructorOptions = { ...rest }
  if (submenu) out.submenu = submenu.map((i) => toElectron(i, w))
  if (url !== undefined) {
    out.click = () => {
      const d = externalOpenDecision(url)
      if (d.allow && d.url) void shell.openExternal(d.url)
    }
  } else if (command !== undefined && isMenuCommand(command)) {
    out.click = () => send(w, command)
  }
  return out
}

/** Sets the application menu in the app's language now; call again after the language changed. */
export function installMenu(w: MenuWiring): void {
  const template = buildMenuTemplate({
    platform: process.platform,
    isDev: w.isDev,
    appName: app.name,
    links: HELP_LINKS,
    language: w.language()
  })
  Menu.setApplicationMenu(Menu.buildFromTemplate(template.map((i) => toElectron(i, w))))
}
