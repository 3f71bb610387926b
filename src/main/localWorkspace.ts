/**
 * The Local workspace: the embedded service, started in-process on 127.0.0.1 with a free port and
 * its data in `<userData>/local-workspace`. Started on demand, re-used while it runs, stopped on dispose.
 */
import { userInfo } from 'node:os'
import { join } from 'node:path'
import { startService } from '../service'
import { ensurePrivateDir } from './privateFiles'
import type { SessionUser } from '../shared/ipc'

export const LOCAL_EMAIL = 'local@agent-desk.local'

export function localUserName(): string {
  try {
    const name = userInfo().username
    return name && name.trim() ? name.trim() : 'Local user'
  } catch {
    return 'Local user'
  }
}

type Running = Awaited<ReturnType<typeof startService>>

export interface LocalWorkspaceOptions {
  userDataDir: string
  scryptCost?: number
  /** Called with the service's base URL each time it starts (the port may change). */
  onUrl: (url: string) => void
}

export class LocalWorkspace {
  private running: Promise<Running> | null = null
  private closed = false

  constructor(private readonly opts: LocalWorkspaceOptions) {}

  get dataDir(): string {
    return join(this.opts.userDataDir, 'local-workspace')
  }

  /** Starts the service once; later calls get the same one. */
  ensure(): Promise<Running> {
    if (this.closed) return Promise.reject(new Error('Agent Desk is shutting down'))
    if (!this.running) {
      const options: Parameters<typeof startService>[0] = {
        dataDir: this.dataDir,
        port: 0,
        host: '127.0.0.1'
      }
      if (this.opts.scryptCost !== undefined) options.scryptCost = this.opts.scryptCost
      // The service's folder is the user's alone (0700); the service keeps its own files in it.
      const started = Promise.resolve()
        .then(() => ensurePrivateDir(this.dataDir))
        .then(() => startService(options))
        .then((svc) => {
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

  async close(): Promise<void> {
    this.closed = true
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
}
