/**
 * Updates, the plain-Node part: who may turn them off (the administrator wins over the user), when
 * to look (at start and every 24 hours), and what the release feed says (the `latest*.yml` file
 * electron-builder publishes next to the installers, as electron-updater reads it).
 *
 * Administrator switch, either of:
 * - the environment variable `AGENT_DESK_UPDATES=off`;
 * - a policy file `{ "updates": "off" }` at `policyFilePath()`: Linux `/etc/agent-desk/policy.json`,
 *   macOS `/Library/Application Support/Agent Desk/policy.json`, Windows
 *   `%ProgramData%\Agent Desk\policy.json`. A policy file that exists but cannot be read or
 *   understood turns updates off too (the administrator meant something; the app does not guess).
 */
import { readFileSync } from 'node:fs'
import { join, posix, win32 } from 'node:path'
import { load as loadYaml } from 'js-yaml'
import { gt as semverGt, valid as semverValid } from 'semver'
import { z } from 'zod'

export const UPDATES_ENV = 'AGENT_DESK_UPDATES'
/** A generic feed (a folder holding latest*.yml and the installers) instead of GitHub releases. */
export const UPDATE_URL_ENV = 'AGENT_DESK_UPDATE_URL'
export const DAY_MS = 24 * 60 * 60 * 1000

// ------------------------------------------------------------------------------------------------
// Policy
// ------------------------------------------------------------------------------------------------

/** The folder of the administrator's policy file on each system. */
export function policyDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env
): string {
  if (platform === 'win32')
    return win32.join(env.ProgramData ?? env.PROGRAMDATA ?? 'C:\\ProgramData', 'Agent Desk')
  if (platform === 'darwin') return '/Library/Application Support/Agent Desk'
  return '/etc/agent-desk'
}

/** The documented policy file of a system (Windows paths are spelt with backslashes). */
export function policyFilePath(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env
): string {
  return (platform === 'win32' ? win32 : posix).join(policyDir(platform, env), 'policy.json')
}

export interface AdminPolicy {
  /** True when the administrator turned updates off for everyone. */
  updatesOff: boolean
  /** Why, in words a user can act on (null when updates are not managed). */
  reason: string | null
}

const OFF_VALUES = new Set(['off', '0', 'false', 'no', 'disabled'])
const PolicyFile = z.object({ updates: z.enum(['on', 'off']).optional() }).passthrough()

/** Reads the administrator's choice: the environment first, then the policy file (if any). */
export function readAdminPolicy(opts: { env?: NodeJS.ProcessEnv; dir?: string } = {}): AdminPolicy {
  const env = opts.env ?? process.env
  const raw = env[UPDATES_ENV]
  if (raw !== undefined && OFF_VALUES.has(raw.trim().toLowerCase())) {
    return { updatesOff: true, reason: `Turned off by your administrator (${UPDATES_ENV}=${raw.trim()}).` }
  }
  const file = opts.dir !== undefined ? join(opts.dir, 'policy.json') : policyFilePath(process.platform, env)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR')
      return { updatesOff: false, reason: null }
    return { updatesOff: true, reason: `Turned off: the policy file ${file} could not be read.` }
  }
  let parsed: z.infer<typeof PolicyFile>
  try {
    parsed = PolicyFile.parse(JSON.parse(text))
  } catch {
    return {
      updatesOff: true,
      reason: `Turned off: the policy file ${file} is not valid (expected {"updates": "off"} or {"updates": "on"}).`
    }
  }
  if (parsed.updates === 'off')
    return { updatesOff: true, reason: `Turned off by your administrator (${file}).` }
  return { updatesOff: false, reason: null }
}

export interface UpdatePolicy {
  /** Whether the app may look for, download and offer updates. */
  enabled: boolean
  /** True when the administrator decides (the user's switch is shown but cannot be changed). */
  managed: boolean
  reason: string | null
}

/** The administrator's "off" wins over the user's choice; otherwise the user's choice stands. */
export function updatePolicy(user: 'on' | 'off', admin: AdminPolicy): UpdatePolicy {
  if (admin.updatesOff) return { enabled: false, managed: true, reason: admin.reason }
  return { enabled: user === 'on', managed: false, reason: user === 'off' ? 'Turned off in Settings.' : null }
}

// ------------------------------------------------------------------------------------------------
// Scheduler
// ------------------------------------------------------------------------------------------------

export interface Timers {
  setInterval(fn: () => void, ms: number): { unref?: () => unknown }
  clearInterval(handle: { unref?: () => unknown }): void
}

export interface UpdateScheduler {
  /** Re-reads `enabled()`: starts (with a check at once) when it became true, stops when false. */
  refresh(): void
  stop(): void
  readonly running: boolean
}

/**
 * Checks at start and then every `intervalMs` (24 h) while `enabled()` says so; no timer at all
 * while updates are off. The timer never keeps the process alive. A failed check goes to
 * `onError`, never further.
 */
export function startUpdateScheduler(opts: {
  enabled: () => boolean
  check: () => Promise<unknown>
  onError?: (e: unknown) => void
  intervalMs?: number
  timers?: Timers
}): UpdateScheduler {
  const timers: Timers = opts.timers ?? {
    setInterval: (fn, ms) => setInterval(fn, ms),
    clearInterval: (h) => clearInterval(h as NodeJS.Timeout)
  }
  const intervalMs = opts.intervalMs ?? DAY_MS
  let handle: { unref?: () => unknown } | null = null
  const run = () => {
    if (!opts.enabled()) return
    try {
      opts.check().catch((e: unknown) => opts.onError?.(e))
    } catch (e) {
      opts.onError?.(e)
    }
  }
  const stop = () => {
    if (handle) timers.clearInterval(handle)
    handle = null
  }
  const refresh = () => {
    if (!opts.enabled()) return stop()
    if (handle) return
    handle = timers.setInterval(run, intervalMs)
    handle.unref?.()
    run()
  }
  refresh()
  return {
    refresh,
    stop,
    get running() {
      return handle !== null
    }
  }
}

// ------------------------------------------------------------------------------------------------
// Feed
// ------------------------------------------------------------------------------------------------

/** The metadata file electron-builder writes for each system (electron-updater's names). */
export function feedFileName(
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch
): string {
  if (platform === 'darwin') return 'latest-mac.yml'
  if (platform === 'linux') return arch === 'arm64' ? 'latest-linux-arm64.yml' : 'latest-linux.yml'
  return 'latest.yml'
}

export type UpdateFeedErrorKind = 'unreachable' | 'malformed'

export class UpdateFeedError extends Error {
  readonly kind: UpdateFeedErrorKind
  readonly url: string
  constructor(kind: UpdateFeedErrorKind, url: string, message: string) {
    super(message)
    this.name = 'UpdateFeedError'
    this.kind = kind
    this.url = url
  }
}

export interface FeedCheck {
  available: boolean
  /** The version the feed offers (also when it is not newer). */
  version: string
  releaseNotes: string | null
  releaseDate: string | null
}

const NoteEntry = z.object({ version: z.string().optional(), note: z.string().nullable().optional() })
const FeedFile = z.object({
  version: z.string().refine((v) => semverValid(v) !== null, 'is not a semantic version'),
  releaseDate: z.union([z.string(), z.date()]).optional(),
  releaseName: z.string().nullable().optional(),
  releaseNotes: z
    .union([z.string(), z.array(NoteEntry)])
    .nullable()
    .optional()
})

/** Plain text of a feed's notes: a string (GitHub gives HTML), or notes per version. */
export function releaseNotesText(
  notes:
    string | readonly { version?: string | undefined; note?: string | null | undefined }[] | null | undefined
): string | null {
  if (notes == null) return null
  const plain = (t: string) =>
    t
      .replace(/<br\s*\/?>|<\/(?:p|li|h\d)>/gi, '\n')
      .replace(/<li[^>]*>/gi, '• ')
      .replace(/<[^>]{0,1000}>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  if (typeof notes === 'string') return plain(notes) || null
  const text = notes
    .map((n) => (n.note ? (n.version ? `${n.version}\n${plain(n.note)}` : plain(n.note)) : ''))
    .filter(Boolean)
    .join('\n\n')
  return text || null
}

/** Parses a `latest*.yml` text; a clear UpdateFeedError when it is not one. */
export function parseFeed(text: string, url: string): z.infer<typeof FeedFile> {
  let doc: unknown
  try {
    doc = loadYaml(text)
  } catch (e) {
    const first = (e instanceof Error ? e.message : String(e)).split('\n')[0]
    throw new UpdateFeedError('malformed', url, `The update feed ${url} is not valid YAML: ${first}`)
  }
  const r = FeedFile.safeParse(doc)
  if (!r.success) {
    const issue = r.error.issues[0]
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'the file'
    throw new UpdateFeedError(
      'malformed',
      url,
      `The update feed ${url} is not an update description: ${where} ${issue?.message ?? 'is invalid'}`
    )
  }
  return r.data
}

/**
 * Fetches `<baseUrl>/<latest*.yml>` and compares its version with the running one. Throws
 * UpdateFeedError for an unreachable feed or one that is not valid. Callers check the policy
 * first: `checkFeedIfAllowed` does.
 */
export async function checkFeed(opts: {
  baseUrl: string
  currentVersion: string
  platform?: NodeJS.Platform
  arch?: string
  timeoutMs?: number
}): Promise<FeedCheck> {
  const base = opts.baseUrl.endsWith('/') ? opts.baseUrl : `${opts.baseUrl}/`
  const url = new URL(feedFileName(opts.platform, opts.arch), base).href
  let res: Response
  try {
    res = await fetch(url, {
      headers: { accept: 'application/x-yaml, text/yaml, text/plain, */*', 'cache-control': 'no-cache' },
      signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000)
    })
  } catch (e) {
    const why = e instanceof Error ? ((e.cause as Error | undefined)?.message ?? e.message) : String(e)
    throw new UpdateFeedError('unreachable', url, `The update feed ${url} cannot be reached: ${why}`)
  }
  if (!res.ok) {
    await res.body?.cancel()
    throw new UpdateFeedError('unreachable', url, `The update feed ${url} answered HTTP ${res.status}.`)
  }
  const feed = parseFeed(await res.text(), url)
  const date = feed.releaseDate instanceof Date ? feed.releaseDate.toISOString() : (feed.releaseDate ?? null)
  return {
    available: semverValid(opts.currentVersion) !== null && semverGt(feed.version, opts.currentVersion),
    version: feed.version,
    releaseNotes: releaseNotesText(feed.releaseNotes),
    releaseDate: date
  }
}

/** `checkFeed`, only when the policy allows: when it does not, nothing is fetched at all. */
export async function checkFeedIfAllowed(
  policy: UpdatePolicy,
  opts: Parameters<typeof checkFeed>[0]
): Promise<FeedCheck | { available: false; disabled: true; reason: string | null }> {
  if (!policy.enabled) return { available: false, disabled: true, reason: policy.reason }
  return checkFeed(opts)
}
