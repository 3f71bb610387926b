/**
 * Every security decision of the Electron shell as plain functions (no electron import), so the
 * tests can assert each one. The adapters in ./electron only wire them up.
 */
import { realpathSync, statSync } from 'node:fs'
import { isAbsolute, join, normalize, relative, sep } from 'node:path'

export interface SecureWebPreferences {
  contextIsolation: true
  sandbox: true
  nodeIntegration: false
  nodeIntegrationInWorker: false
  nodeIntegrationInSubFrames: false
  webSecurity: true
  allowRunningInsecureContent: false
  webviewTag: false
  experimentalFeatures: false
  spellcheck: true
  /** Middle-click (auxclick) must not open links in new windows. */
  disableBlinkFeatures: 'Auxclick'
  /** Closed unless allowed by devToolsAllowed (development, or the documented flag). */
  devTools: boolean
  preload: string
}

export function windowWebPreferences(
  preloadPath: string,
  opts: { devTools?: boolean } = {}
): SecureWebPreferences {
  return {
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    spellcheck: true,
    disableBlinkFeatures: 'Auxclick',
    devTools: opts.devTools === true,
    preload: preloadPath
  }
}

/** What kind of build is running: `devBuild` is `electron-vite dev` (import.meta.env.DEV). */
export interface BuildKind {
  devBuild: boolean
  packaged: boolean
}

/** The documented switch that opens DevTools in an installed (packaged) app. */
export const DEVTOOLS_FLAG = 'AGENT_DESK_DEVTOOLS'

/** DevTools: open from a source checkout; in an installed app only with AGENT_DESK_DEVTOOLS=1. */
export function devToolsAllowed(
  build: Pick<BuildKind, 'packaged'>,
  env: Record<string, string | undefined>
): boolean {
  return !build.packaged || env[DEVTOOLS_FLAG] === '1'
}

/** 127.0.0.0/8, localhost (and its subdomains, which resolve to loopback) or [::1]. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '')
  if (h === 'localhost' || h.endsWith('.localhost')) return true
  if (h === '[::1]') return true
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h)
  return !!m && Number(m[1]) === 127 && m.slice(2).every((p) => Number(p) <= 255)
}

/** A renderer dev-server address that may be trusted: plain http on a loopback host, no credentials. */
function loopbackHttp(url: string | undefined | null): URL | null {
  const u = parse(url)
  if (!u || u.protocol !== 'http:' || u.username !== '' || u.password !== '') return null
  return isLoopbackHost(u.hostname) ? u : null
}

export interface DevServerDecision {
  /** The dev server to load, or undefined: the built renderer on the app scheme. */
  url?: string
  /** Why a given address was not used (logged as a warning). */
  warning?: string
}

/**
 * ELECTRON_RENDERER_URL (set by `electron-vite dev`): honoured only by a development build that
 * is not packaged, and only for a loopback http address. Whatever page it names gets the whole
 * IPC API, so anything else is ignored with a warning.
 */
export function devServerDecision(raw: string | undefined | null, build: BuildKind): DevServerDecision {
  if (typeof raw !== 'string' || raw.trim() === '') return {}
  if (!build.devBuild || build.packaged) {
    return { warning: 'ELECTRON_RENDERER_URL is ignored: only a development build loads a dev server.' }
  }
  const u = loopbackHttp(raw.trim())
  if (!u) {
    return {
      warning:
        'ELECTRON_RENDERER_URL is ignored: the dev server must be a plain http:// address on this ' +
        'computer (localhost, 127.x.x.x or [::1]).'
    }
  }
  return { url: u.href }
}

/** The same policy as the meta tag in src/renderer/index.html, also sent as a response header. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join('; ')

function parse(url: string | undefined | null): URL | null {
  if (typeof url !== 'string' || url === '') return null
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/**
 * The app's own scheme. The built renderer is served as `agent-desk://app/…` rather than from
 * file:// (whose pages may read any file the user can): a standard, secure scheme with its own
 * origin, which only this folder answers, and for which Chromium keeps compiled code between
 * starts (V8 code cache), so the second and later starts compile less.
 */
export const APP_SCHEME = 'agent-desk'
export const APP_HOST = 'app'
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  codeCache: true
} as const

/**
 * The URL the app window loads: the built renderer on the app's scheme, or the dev server (a
 * loopback http address only; see devServerDecision).
 */
export function appUrlFor(devServerUrl?: string | null): string {
  const dev = loopbackHttp(devServerUrl)
  if (dev) return dev.href
  return `${APP_SCHEME}://${APP_HOST}/index.html`
}

/**
 * The file of the built renderer that an `agent-desk://app/…` request asks for, or null: another
 * host, a path that leaves the folder (`..`, encoded or not), or a path that cannot be decoded.
 * `/` is index.html; the query and the hash are not part of the file.
 */
export function appFileFor(requestUrl: string, rendererDir: string): string | null {
  const u = parse(requestUrl)
  if (!u || u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return null
  if (u.username !== '' || u.password !== '') return null
  let path: string
  try {
    path = decodeURIComponent(u.pathname)
  } catch {
    return null
  }
  if (path.includes('\0')) return null
  if (path === '/' || path === '') path = '/index.html'
  const file = normalize(join(rendererDir, path))
  const rel = relative(rendererDir, file)
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null
  return file
}

/** True when `file` lies inside `dir` (not `dir` itself; a sibling `dir-evil` is outside). */
export function isInside(dir: string, file: string): boolean {
  const rel = relative(dir, file)
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)
}

/**
 * What the app scheme serves for a request: the REAL path of a regular file inside the REAL
 * renderer folder, or null. Beyond appFileFor's lexical check, symbolic links are resolved (one
 * pointing out of the folder is refused, wherever it sits) and a folder, a device or a socket is
 * never passed on. Synchronous fs calls: Electron's fs reads inside the app's asar archive too.
 */
export function resolveAppFile(requestUrl: string, rendererDir: string): string | null {
  const file = appFileFor(requestUrl, rendererDir)
  if (!file) return null
  try {
    const root = realpathSync(rendererDir)
    const real = realpathSync(file)
    if (!isInside(root, real)) return null
    return statSync(real).isFile() ? real : null
  } catch {
    return null
  }
}

/** True when `url` is the app's own page: on the app's scheme and host, or the dev server's origin. */
export function isAppUrl(url: string | undefined | null, appUrl: string): boolean {
  const u = parse(url)
  const app = parse(appUrl)
  if (!u || !app) return false
  if (u.username !== '' || u.password !== '') return false
  if (app.protocol === `${APP_SCHEME}:`) return u.protocol === app.protocol && u.host === app.host
  // The dev server: its origin, and only ever a loopback http one.
  if (loopbackHttp(appUrl)) return u.origin === app.origin
  return false
}

/** IPC is answered only for frames showing the app's own page. */
export function isTrustedSender(frameUrl: string | undefined | null, appUrl: string): boolean {
  return isAppUrl(frameUrl, appUrl)
}

export interface ExternalDecision {
  allow: boolean
  /** The normalised address to hand to the OS when allowed. */
  url?: string
  reason?: string
}

/** Only plain http(s) web addresses go to the system browser: no javascript:, file:, custom schemes, credentials. */
export function externalOpenDecision(url: string | undefined | null): ExternalDecision {
  if (typeof url !== 'string' || url.length > 4096) return { allow: false, reason: 'Not a web address' }
  const u = parse(url.trim())
  if (!u) return { allow: false, reason: 'Not a web address' }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    return { allow: false, reason: `Addresses starting with "${u.protocol}" are not opened` }
  }
  if (u.username !== '' || u.password !== '') {
    return { allow: false, reason: 'Addresses with a user name or password in them are not opened' }
  }
  if (u.hostname === '') return { allow: false, reason: 'Not a web address' }
  return { allow: true, url: u.href }
}

export interface NavigationDecision {
  /** In-app routing is hash-based: the window itself never navigates. */
  allow: false
  /** A web link the user followed opens in the system browser instead. */
  openExternal: ExternalDecision
}

export function navigationDecision(url: string | undefined | null): NavigationDecision {
  return { allow: false, openExternal: externalOpenDecision(url) }
}

/**
 * No camera, microphone, notifications, geolocation, clipboard-read, …: the app needs none. The
 * one exception is writing to the clipboard on a click (`clipboard-sanitized-write`, what
 * navigator.clipboard.writeText asks for), which the Copy buttons (API token, About) need.
 */
export function permissionDecision(permission: string): boolean {
  return permission === 'clipboard-sanitized-write'
}
