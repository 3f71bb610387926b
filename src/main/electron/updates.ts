/**
 * Electron adapter for updates: electron-updater against the release feed (GitHub releases as
 * the packaging config publishes them, or a generic feed at AGENT_DESK_UPDATE_URL), checked at
 * start and every 24 hours while the policy allows (../desktop/updates), downloaded in the
 * background, then a native dialog asks "Restart now" or "Later" and shows what changed. Errors go
 * to the log and never further.
 */
import { app, BrowserWindow, dialog } from 'electron'
import electronUpdater from 'electron-updater'
import type { UpdateStatus } from '../../shared/settings'
import { createDesktop, updateStatus, type Desktop } from '../desktop/desktop'
import type { FileLog } from '../desktop/log'
import {
  releaseNotesText,
  startUpdateScheduler,
  UPDATE_URL_ENV,
  type UpdateScheduler
} from '../desktop/updates'

const { autoUpdater } = electronUpdater

export interface Updates {
  checkNow(currentVersion: string): Promise<UpdateStatus>
  stop(): void
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e))

export function startUpdates(opts: {
  desktop: () => Desktop
  log: FileLog
  window: () => BrowserWindow | null
}): Updates {
  const { log } = opts
  let downloaded: { version: string; notes: string | null; date: string | null } | null = null
  let asking = false

  autoUpdater.autoDownload = true
  autoUpdater.autoInstallOnAppQuit = true
  autoUpdater.logger = {
    info: () => undefined,
    warn: (...a: unknown[]) => log.warn('[updates]', ...a),
    error: (...a: unknown[]) => log.error('[updates]', ...a)
  }
  const feed = process.env[UPDATE_URL_ENV]
  if (feed) autoUpdater.setFeedURL({ provider: 'generic', url: feed })

  autoUpdater.on('error', (e) => log.error('[updates] update failed', e))
  autoUpdater.on('update-downloaded', (info) => {
    downloaded = {
      version: info.version,
      notes: releaseNotesText(info.releaseNotes),
      date: info.releaseDate ?? null
    }
    void ask().catch((e: unknown) => log.error('[updates] could not ask to restart', e))
  })

  async function ask(): Promise<void> {
    if (!downloaded || asking || !opts.desktop().policy().enabled) return
    asking = true
    try {
      const notes = downloaded.notes ?? ''
      const options: Electron.MessageBoxOptions = {
        type: 'info',
        buttons: ['Restart now', 'Later'],
        defaultId: 0,
        cancelId: 1,
        noLink: true,
        title: 'Update ready',
        message: `Agent Desk ${downloaded.version} is ready to install`,
        detail:
          `${notes.length > 1500 ? `${notes.slice(0, 1500)}…` : notes}\n\nRestart now to use it, or later: it is installed when you quit.`.trim()
      }
      const win = opts.window()
      const { response } =
        win && !win.isDestroyed()
          ? await dialog.showMessageBox(win, options)
          : await dialog.showMessageBox(options)
      if (response === 0) setImmediate(() => autoUpdater.quitAndInstall())
    } finally {
      asking = false
    }
  }

  async function check(currentVersion: string): Promise<UpdateStatus> {
    if (!app.isPackaged && !autoUpdater.forceDevUpdateConfig) {
      return updateStatus(currentVersion, 'unconfigured', 'Updates are checked only in the installed app.')
    }
    try {
      const r = await autoUpdater.checkForUpdates()
      if (!r)
        return updateStatus(currentVersion, 'unconfigured', 'This copy of Agent Desk cannot update itself.')
      const more = {
        version: r.updateInfo.version,
        releaseNotes: releaseNotesText(r.updateInfo.releaseNotes),
        releaseDate: r.updateInfo.releaseDate ?? null
      }
      if (downloaded && downloaded.version === r.updateInfo.version) {
        return updateStatus(
          currentVersion,
          'downloaded',
          `Agent Desk ${more.version} is ready: restart to install it.`,
          more
        )
      }
      if (!r.isUpdateAvailable)
        return updateStatus(currentVersion, 'current', `Agent Desk ${currentVersion} is up to date.`)
      return updateStatus(
        currentVersion,
        'available',
        `Agent Desk ${more.version} is available and downloads in the background.`,
        more
      )
    } catch (e) {
      log.error('[updates] check failed', e)
      return updateStatus(currentVersion, 'error', `Could not check for updates: ${errorText(e)}`)
    }
  }

  const scheduler: UpdateScheduler = startUpdateScheduler({
    enabled: () => opts.desktop().policy().enabled,
    check: () => check(app.getVersion()),
    onError: (e) => log.error('[updates] scheduled check failed', e)
  })
  const unsubscribe = opts.desktop().onChange(() => scheduler.refresh())

  return {
    checkNow: check,
    stop() {
      unsubscribe()
      scheduler.stop()
    }
  }
}

/** The desktop services of the app, with "Check for updates" through electron-updater. */
export function createAppDesktop(opts: {
  userDataDir: string
  log: FileLog
  window: () => BrowserWindow | null
}): { desktop: Desktop; updates: Updates } {
  let updates: Updates | null = null
  const desktop = createDesktop({
    userDataDir: opts.userDataDir,
    version: app.getVersion(),
    log: (message, err) => opts.log.warn(`[agent-desk] ${message}`, err ?? ''),
    checkNow: (v) =>
      updates
        ? updates.checkNow(v)
        : Promise.resolve(updateStatus(v, 'unconfigured', 'Updates are starting.'))
  })
  updates = startUpdates({ desktop: () => desktop, log: opts.log, window: opts.window })
  return { desktop, updates }
}
