/**
 * The Local workspace: the embedded service, started on a worker thread of its own (so its SQLite
 * and JSON work never blocks main's IPC answers) on 127.0.0.1 with a free port and its data in
 * `<userData>/local-workspace`. Started on demand, re-used while it runs, stopped on dispose; a
 * thread that stops on its own is started again at once (or, if it keeps stopping, by the next call).
 *
 * Hardening (issue 12): its sessions are minted in-process and live 12 hours (HTTP sign-in and
 * sign-up are off); the signing secret is kept in the OS keychain, never in service.db; service.db
 * is backed up at start and daily (last 7 kept); a damaged service.db is moved aside, the user is
 * told (`recovery()`) and offered the newest backup (`restore()`).
 */
import { randomBytes } from 'node:crypto'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import {
  listBackups,
  restoreBackup,
  type BackupInfo,
  type DamageNotice,
  type ServiceOptions
} from '../service'
import { startServiceOnThread, type ThreadService } from '../service/thread'
import { ensurePrivateDir } from './privateFiles'
import type { SessionUser } from '../shared/ipc'
import type { Keychain } from './keychain'

export const LOCAL_EMAIL = 'local@agent-desk.local'
/** The keychain account of the Local workspace's signing secret (apart from session tokens). */
export const SIGNING_SECRET_ACCOUNT = 'local-workspace:signing-secret'
/** Lifetime of a Local workspace session token: one is minted at every start. */
export const LOCAL_TOKEN_TTL_SECONDS = 12 * 60 * 60

export function localUserName(): string {
  try {
    const name = userInfo().username
    return name && name.trim() ? name.trim() : 'Local user'
  } catch {
    return 'Local user'
  }
}

export interface LocalWorkspaceOptions {
  userDataDir: string
  /** The service thread's script (built as out/main/serviceThread.cjs; src/service/thread.ts). */
  serviceThread: string
  scryptCost?: number
  /** Where the signing secret lives. Without one (or when it fails), a secret for this run only. */
  keychain?: Keychain
  /** Called with the service's base URL each time it starts (the port may change). */
  onUrl: (url: string) => void
  /** Where failures to reach the keychain are reported. */
  log?: (message: string, err?: unknown) => void
}

export interface LocalBackups {
  backups: BackupInfo[]
  /** Set when service.db was found damaged and moved aside: tell the user, offer a backup. */
  damage: DamageNotice | null
}

/** A thread that stops on its own is started again at once at most this often in RESTART_WINDOW_MS. */
export const RESTARTS_AT_ONCE = 3
const RESTART_WINDOW_MS = 60_000

export class LocalWorkspace {
  private running: Promise<ThreadService> | null = null
  /** When the thread last stopped on its own (within RESTART_WINDOW_MS). */
  private stops: number[] = []
  private closed = false
  private secret: Promise<string> | null = null
  private damage: DamageNotice | null = null

  constructor(private readonly opts: LocalWorkspaceOptions) {}

  get dataDir(): string {
    return join(this.opts.userDataDir, 'local-workspace')
  }

  /** The signing secret: from the keychain, made and stored there on first use. */
  private signingSecret(): Promise<string> {
    this.secret ??= (async () => {
      const kc = this.opts.keychain
      if (kc) {
        try {
          const stored = await kc.get(SIGNING_SECRET_ACCOUNT)
          if (stored) return stored
          const made = randomBytes(32).toString('base64url')
          await kc.set(SIGNING_SECRET_ACCOUNT, made)
          return made
        } catch (e) {
          this.opts.log?.('The keychain could not keep the Local workspace signing secret', e)
        }
      }
      // Sessions are minted at every start, so a secret for this run only loses nothing.
      return randomBytes(32).toString('base64url')
    })()
    return this.secret
  }

  /** Starts the service once; later calls get the same one. */
  ensure(): Promise<ThreadService> {
    if (this.closed) return Promise.reject(new Error('Agent Desk is shutting down'))
    if (!this.running) {
      // The service's folder is the user's alone (0700); the service keeps its own files in it.
      const started = this.signingSecret().then(async (sessionSecret) => {
        ensurePrivateDir(this.dataDir)
        const options: ServiceOptions = {
          dataDir: this.dataDir,
          port: 0,
          host: '127.0.0.1',
          tokenTtlSeconds: LOCAL_TOKEN_TTL_SECONDS,
          passwordRoutes: false,
          sessionSecret,
          onDamagedDatabase: 'moveAside',
          backups: {}
        }
        if (this.opts.scryptCost !== undefined) options.scryptCost = this.opts.scryptCost
        const svc = await startServiceOnThread(options, this.opts.serviceThread, {
          onUnexpectedExit: (e) => {
            this.opts.log?.('The Local workspace service stopped unexpectedly', e)
            if (this.running !== started) return
            this.running = null
            // Started again at once, on another port (onUrl says which), unless it keeps stopping:
            // then (and if starting fails) by the next call that needs it.
            const now = Date.now()
            this.stops = [...this.stops.filter((t) => now - t < RESTART_WINDOW_MS), now]
            if (this.stops.length > RESTARTS_AT_ONCE) return
            this.ensure().catch((again: unknown) => {
              this.opts.log?.('The Local workspace service could not start again', again)
            })
          }
        })
        if (svc.damage) this.damage = svc.damage
        this.opts.onUrl(svc.url)
        return svc
      })
      this.running = started
      started.catch(() => {
        if (this.running === started) this.running = null
      })
    }
    return this.running
  }

  /** A fresh session token for the Local workspace's one user (created on first use). */
  async session(): Promise<{ token: string; user: SessionUser }> {
    const svc = await this.ensure()
    const { token, user } = await svc.localSession({ email: LOCAL_EMAIL, name: localUserName() })
    return { token, user: { id: user.id, email: user.email, name: user.name } }
  }

  isRunning(): boolean {
    return this.running !== null
  }

  /**
   * The backups, newest first, and the damage notice (if service.db was found damaged). A backup
   * being made (at start, on a worker thread) is waited for, so the newest one is listed.
   */
  async backups(): Promise<LocalBackups> {
    const running = this.running
    if (running) await running.then((svc) => svc.backupsDone()).catch(() => undefined)
    return { backups: listBackups(this.dataDir), damage: this.damage }
  }

  /**
   * Replaces service.db with a backup: stops the service, moves the current file aside (never
   * deleted), copies the backup in and starts again (the URL may change; onUrl says so).
   */
  async restore(name: string): Promise<LocalBackups & { movedAside: string | null }> {
    if (this.closed) throw new Error('Agent Desk is shutting down')
    if (!listBackups(this.dataDir).some((b) => b.name === name)) {
      throw new Error(`There is no backup named ${name}`)
    }
    const wasRunning = this.running !== null
    await this.stop()
    try {
      const { movedAside } = await restoreBackup(this.dataDir, name)
      this.damage = null
      return { ...(await this.backups()), movedAside }
    } finally {
      if (wasRunning) await this.ensure()
    }
  }

  private async stop(): Promise<void> {
    const running = this.running
    this.running = null
    if (!running) return
    try {
      const svc = await running
      await svc.close()
    } catch {
      // It never started: nothing to stop.
    }
  }

  async close(): Promise<void> {
    this.closed = true
    await this.stop()
  }
}
