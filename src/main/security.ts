/**
 * Every security decision of the Electron shell as plain functions (no electron import), so the
 * tests can assert each one. The adapters in ./electron only wire them up.
 */
import { isAbsolute, join, normalize, relative } from 'node:path'

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
  preload: string
}

export function windowWebPreferences(preloadPath: string): SecureWebPreferences {
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
    preload: preloadPath
  }
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

/** The URL the app window loads: the built renderer on the app's scheme, or the dev server. */
export function appUrlFor(devServerUrl?: string | null): string {
  const dev = parse(devServerUrl)
  if (dev && (dev.protocol === 'http:' || dev.protocol === 'https:')) return dev.href
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

/** True when `url` is the app's own page: on the app's scheme and host, or the dev server's origin. */
export function isAppUrl(url: string | undefined | null, appUrl: string): boolean {
  const u = parse(url)
  const app = parse(appUrl)
  if (!u || !app) return false
  if (u.username !== '' || u.password !== '') return false
  if (app.protocol === `${APP_SCHEME}:`) return u.protocol === app.protocol && u.host === app.host
  if (app.protocol === 'http:' || app.protocol === 'https:') return u.origin === app.origin
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

/** No camera, microphone, notifications, geolocation, clipboard-read, …: the app needs none. */
export function permissionDecision(_permission: string): boolean {
  return false
}
