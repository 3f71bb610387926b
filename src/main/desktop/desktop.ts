/**
 * The desktop services the IPC table reaches (settings, update policy, "Check for updates"), plain
 * Node. The Electron adapter passes its own `checkNow` (electron-updater, which also downloads);
 * elsewhere (the e2e harness, tests) "Check for updates" reads the feed at AGENT_DESK_UPDATE_URL.
 */
import { formatTimestamp } from '../../shared/common'
import type { SettingsPatch, SettingsState, UpdateStatus } from '../../shared/settings'
import { AppError } from '../../shared/errors'
import { SettingsStore } from './settings'
import {
  checkFeed,
  readAdminPolicy,
  updatePolicy,
  UpdateFeedError,
  UPDATE_URL_ENV,
  type UpdatePolicy
} from './updates'

export interface DesktopOptions {
  userDataDir: string
  version: string
  env?: NodeJS.ProcessEnv
  /** Folder of the administrator's policy.json (default: the documented one of this system). */
  policyDir?: string
  /** How "Check for updates" checks when the policy allows it. */
  checkNow?: (currentVersion: string) => Promise<UpdateStatus>
  log?: (message: string, err?: unknown) => void
}

export interface Desktop {
  readonly settings: SettingsStore
  /** The policy now (the administrator's file is read again each time: it is small). */
  policy(): UpdatePolicy
  state(): SettingsState
  /** Applies at once; the file is written after (`saved()`). */
  set(patch: SettingsPatch): SettingsState
  /** Resolves once every change so far is in settings.json; rejects when the last write failed. */
  saved(): Promise<void>
  checkForUpdates(): Promise<UpdateStatus>
  onChange(listener: (state: SettingsState) => void): () => void
}

export function updateStatus(
  currentVersion: string,
  state: UpdateStatus['state'],
  message: string,
  more: Partial<Pick<UpdateStatus, 'version' | 'releaseNotes' | 'releaseDate'>> = {}
): UpdateStatus {
  return {
    state,
    currentVersion,
    version: more.version ?? null,
    releaseNotes: more.releaseNotes ?? null,
    releaseDate: more.releaseDate ?? null,
    message,
    checkedAt: formatTimestamp(new Date())
  }
}

/** "Check for updates" against a generic feed (a folder with latest*.yml), or "unconfigured". */
export async function checkGenericFeed(
  currentVersion: string,
  feedUrl: string | undefined
): Promise<UpdateStatus> {
  if (!feedUrl)
    return updateStatus(currentVersion, 'unconfigured', 'This copy of Agent Desk has no update feed.')
  try {
    const r = await checkFeed({ baseUrl: feedUrl, currentVersion })
    if (!r.available) {
      return updateStatus(currentVersion, 'current', `Agent Desk ${currentVersion} is up to date.`)
    }
    return updateStatus(currentVersion, 'available', `Agent Desk ${r.version} is available.`, r)
  } catch (e) {
    if (e instanceof UpdateFeedError) return updateStatus(currentVersion, 'error', e.message)
    throw e
  }
}

export function createDesktop(opts: DesktopOptions): Desktop {
  const env = opts.env ?? process.env
  const log = opts.log ?? (() => undefined)
  const settings = new SettingsStore(opts.userDataDir, log)
  const policyOpts: Parameters<typeof readAdminPolicy>[0] = { env }
  if (opts.policyDir !== undefined) policyOpts.dir = opts.policyDir
  const policy = () => updatePolicy(settings.get().updates, readAdminPolicy(policyOpts))
  const state = (): SettingsState => {
    const p = policy()
    return {
      settings: settings.get(),
      managed: { updates: p.managed, reason: p.managed ? p.reason : null },
      updatesEnabled: p.enabled
    }
  }
  const checkNow = opts.checkNow ?? ((v: string) => checkGenericFeed(v, env[UPDATE_URL_ENV]))
  return {
    settings,
    policy,
    state,
    set(patch) {
      if (patch.updates !== undefined && patch.updates !== settings.get().updates) {
        const p = policy()
        if (p.managed) {
          throw new AppError({
            kind: 'forbidden',
            message: `Updates are managed by your administrator. ${p.reason ?? ''}`.trim()
          })
        }
      }
      settings.set(patch)
      return state()
    },
    saved: () => settings.saved(),
    async checkForUpdates() {
      const p = policy()
      // Turned off means no request at all, not even one the user asks for.
      if (!p.enabled) return updateStatus(opts.version, 'disabled', p.reason ?? 'Updates are turned off.')
      return checkNow(opts.version)
    },
    onChange(listener) {
      return settings.onChange(() => listener(state()))
    }
  }
}
