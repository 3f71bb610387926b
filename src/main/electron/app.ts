/**
 * Electron adapter: the app's life cycle and its one window, with every security decision taken
 * from ../security (plain functions the tests assert).
 */
import {
  app,
  BrowserWindow,
  dialog,
  net,
  protocol,
  session,
  shell,
  type Session,
  type WebContents
} from 'electron'
import { closeGuard, questionLanguage } from '../desktop/closeGuard'
import { dirname } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createCore, type Core } from '../core'
import { createKeychain, keychainServiceName } from '../keychain'
import {
  APP_SCHEME,
  APP_SCHEME_PRIVILEGES,
  appUrlFor,
  CONTENT_SECURITY_POLICY,
  externalOpenDecision,
  navigationDecision,
  permissionDecision,
  resolveAppFile,
  windowWebPreferences
} from '../security'
import { registerIpc } from './ipc'
import { installMenu } from './menu'
import { keepWindowState, windowPlacement } from './windowState'
import { WINDOW_SIZES, WindowStateFile } from '../desktop/windowState'
import { captureConsole, createFileLog, registeringSecrets } from '../desktop/log'
import { watchFailedReplays } from './notifications'
import { createAppDesktop } from './updates'

export interface AppPaths {
  /** Built preload (CommonJS, sandboxed). */
  preload: string
  /** Built renderer index.html. */
  rendererHtml: string
  /** The Local workspace service thread's script (out/main/serviceThread.cjs). */
  serviceThread: string
  /** The renderer dev server in `electron-vite dev` (already checked: see devServerDecision). */
  devServerUrl?: string | undefined
  /** DevTools may open (see devToolsAllowed). */
  devTools: boolean
  /** `electron-vite dev`: the menu shows Reload and DevTools. */
  devBuild: boolean
}

function openExternally(url: string): void {
  const d = externalOpenDecision(url)
  if (d.allow && d.url) void shell.openExternal(d.url)
}

/** Every web contents: no new windows, no navigation away, no webviews. */
function hardenContents(contents: WebContents): void {
  contents.setWindowOpenHandler(({ url }) => {
    openExternally(url)
    return { action: 'deny' }
  })
  contents.on('will-navigate', (event, url) => {
    const d = navigationDecision(url)
    if (!d.allow) {
      event.preventDefault()
      if (d.openExternal.allow && d.openExternal.url) void shell.openExternal(d.openExternal.url)
    }
  })
  contents.on('will-redirect', (event, url) => {
    if (!navigationDecision(url).allow) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
}

function hardenSession(ses: Session): void {
  ses.setPermissionRequestHandler((_wc, permission, callback) => callback(permissionDecision(permission)))
  ses.setPermissionCheckHandler((_wc, permission) => permissionDecision(permission))
  ses.webRequest.onHeadersReceived((details, callback) => {
    const headers = { ...(details.responseHeaders ?? {}) }
    for (const key of Object.keys(headers)) {
      if (key.toLowerCase() === 'content-security-policy') delete headers[key]
    }
    headers['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY]
    callback({ responseHeaders: headers })
  })
}

/**
 * Serves the built renderer folder on the app's scheme (see APP_SCHEME): regular files whose real
 * path lies inside the real folder only (resolveAppFile), the page with the CSP header as well as
 * its meta tag.
 */
function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppFile(request.url, rendererDir)
    if (!file) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } })
    const res = await net.fetch(pathToFileURL(file).href)
    if (!res.ok) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } })
    const headers = new Headers(res.headers)
    headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY)
    headers.set('X-Content-Type-Options', 'nosniff')
    return new Response(res.body, { status: 200, headers })
  })
}

function createWindow(
  paths: Pick<AppPaths, 'preload' | 'devTools'>,
  appUrl: string,
  windowFile: WindowStateFile
): BrowserWindow {
  const place = windowPlacement(app.getPath('userData'))
  const win = new BrowserWindow({
    ...place.bounds,
    minWidth: WINDOW_SIZES.minWidth,
    minHeight: WINDOW_SIZES.minHeight,
    show: false,
    title: 'Agent Desk',
    // Spelled out as well as spread so static checkers (Electronegativity) see the key settings.
    webPreferences: {
      ...windowWebPreferences(paths.preload, { devTools: paths.devTools }),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      disableBlinkFeatures: 'Auxclick'
    }
  })
  win.once('ready-to-show', () => {
    if (place.maximized) win.maximize()
    win.show()
  })
  keepWindowState(win, windowFile)
  void win.loadURL(appUrl)
  return win
}

export function startApp(paths: AppPaths): void {
  // Every renderer is sandboxed, whatever a window's options say.
  app.enableSandbox()
  // Before "ready", as Electron requires.
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { ...APP_SCHEME_PRIVILEGES } }])
  if (!app.requestSingleInstanceLock()) {
    app.quit()
    return
  }
  let win: BrowserWindow | null = null
  let core: Core | null = null
  // One writer for every window the app opens (macOS opens a new one after the last closed).
  const windowFile = new WindowStateFile(app.getPath('userData'))
  let windowStateWritten = false
  let unregister: (() => void) | null = null
  let quitting = false
  let stopDesktop: (() => void) | null = null
  let language: () => 'en' | 'de' = () => 'en'
  // Unsaved drafts: closing the window or quitting asks first (the drafts are kept either way).
  const guard = closeGuard({
    unsaved: () => core?.unsavedDrafts() ?? 0,
    language: () => language(),
    ask: async (q) => {
      const parent = win && !win.isDestroyed() ? win : null
      const r = parent ? await dialog.showMessageBox(parent, q) : await dialog.showMessageBox(q)
      return r.response
    }
  })
  const openWindow = (paths: AppPaths, appUrl: string): BrowserWindow => {
    const w = createWindow(paths, appUrl, windowFile)
    guard.reset()
    w.on('close', (e) => {
      if (guard.confirmedAlready() || !core || core.unsavedDrafts() === 0) return
      e.preventDefault()
      void guard.confirm().then((ok) => {
        if (ok && !w.isDestroyed()) w.close()
      })
    })
    return w
  }

  app.on('second-instance', () => {
    if (!win || win.isDestroyed()) return
    if (win.isMinimized()) win.restore()
    win.focus()
  })
  app.on('web-contents-created', (_e, contents) => hardenContents(contents))

  app.on('before-quit', (event) => {
    if (quitting || !core) return
    event.preventDefault()
    const c = core
    void guard.confirm().then((ok) => {
      if (!ok || quitting) return
      quitting = true
      unregister?.()
      stopDesktop?.()
      void c
        .dispose()
        .catch((e: unknown) => console.error('[agent-desk] shutdown', e))
        .finally(() => app.quit())
    })
  })
  // The last window's place is written as it closes, off the event loop: exit once it is in the file.
  app.on('will-quit', (event) => {
    if (windowStateWritten) return
    event.preventDefault()
    void windowFile
      .saved()
      .catch(() => undefined)
      .finally(() => {
        windowStateWritten = true
        app.quit()
      })
  })
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })

  void app.whenReady().then(async () => {
    const appUrl = appUrlFor(paths.devServerUrl)
    serveRenderer(dirname(paths.rendererHtml))
    hardenSession(session.defaultSession)
    // Warnings and errors to the log file in the OS log folder, scrubbed of secrets.
    const fileLog = createFileLog({ dir: app.getPath('logs') })
    captureConsole(fileLog)
    const keychain = await createKeychain(keychainServiceName(process.env, app.isPackaged), {
      onFallback: (reason) => console.warn(`[agent-desk] no system keychain: ${reason}`)
    })
    const { desktop, updates } = createAppDesktop({
      userDataDir: app.getPath('userData'),
      log: fileLog,
      window: () => win
    })
    core = createCore({
      userDataDir: app.getPath('userData'),
      keychain: registeringSecrets(keychain),
      desktop,
      mode: 'electron',
      serviceThread: paths.serviceThread,
      version: app.getVersion(),
      openExternal: (url) => shell.openExternal(url)
    })
    unregister = registerIpc(core, appUrl)
    language = () => questionLanguage(desktop.state().settings.language, app.getLocale())
    const menu = {
      isDev: paths.devBuild,
      appUrl,
      window: () => (win && !win.isDestroyed() ? win : null),
      language: () => language()
    }
    installMenu(menu)
    // The menu speaks the app's language: built again when the setting changes it.
    let menuLanguage = language()
    const stopMenuLanguage = desktop.onChange(() => {
      if (language() === menuLanguage) return
      menuLanguage = language()
      installMenu(menu)
    })
    win = openWindow(paths, appUrl)
    const stopNotifications = watchFailedReplays(core, () => win)
    stopDesktop = () => {
      stopNotifications()
      stopMenuLanguage()
      updates.stop()
    }
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) win = openWindow(paths, appUrl)
    })
  })
}
