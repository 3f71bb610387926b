/**
 * The sync coordinator: sends the outbox when the server can take it. It listens to main's events
 * (events.ts): a session opened (connectivity reset; changes left from an earlier run go out), the
 * connection is back or changes wait (replay), the session closed (probing stops). The user's
 * retry and discard of a queued change come here too.
 */
import { AppError, isConnectivityError } from '../shared/errors'
import type { EventName, IpcEvents, OutboxEntry } from '../shared/ipc'
import type { ActiveSession } from './activeSession'
import type { QueuedInput } from './cachedApi'
import type { ConnectivityMonitor } from './connectivity'
import type { EventBus } from './events'
import { outboxSnapshot, replayOutbox, type Resource } from './offline'
import type { Lease, WriteOp } from './resources/kit'

export interface SyncDeps {
  events: EventBus
  connectivity: ConnectivityMonitor
  session: { acquire(): Promise<ActiveSession>; release(s: ActiveSession): void }
  buildOp: (channel: string, args: unknown) => WriteOp
  /** A cheap request to the session's server; resolves when it answered. */
  probe: () => Promise<void>
  emit: <E extends EventName>(event: E, payload: IpcEvents[E]) => void
  log: (message: string, err?: unknown) => void
}

export class SyncCoordinator {
  private replaying: Promise<void> | null = null
  private again = false
  private stopped = false

  constructor(private readonly deps: SyncDeps) {
    const { events, connectivity } = deps
    events.on('session.opened', (s) => this.sessionOpened(s))
    events.on('session.closed', () => connectivity.stop())
    events.on('connection.back', () => void this.replay())
    events.on('changes.waiting', () => {
      if (connectivity.get().online) void this.replay()
    })
  }

  private sessionOpened(s: ActiveSession): void {
    let last: string | null = null
    try {
      const v = s.cache.getMeta('lastSyncedAt')
      last = typeof v === 'string' ? v : null
    } catch (e) {
      this.deps.log('Could not read the last sync time', e)
    }
    this.deps.connectivity.reset(last, this.deps.probe)
    // Anything still waiting from an earlier run goes out when the server answers.
    if (s.outbox.list().some((e: OutboxEntry) => e.status === 'pending' || e.status === 'replaying')) {
      for (const e of s.outbox.list()) if (e.status === 'replaying') s.outbox.markPending(e.id)
      setTimeout(() => {
        if (!this.stopped) void this.replay()
      }, 0)
    }
  }

  outboxList(s: Lease): OutboxEntry[] {
    return outboxSnapshot(s.outbox)
  }

  private emitOutbox(s: Lease): void {
    this.deps.emit('outbox.changed', this.outboxList(s))
  }

  private hasPending(s: Lease): boolean {
    return s.outbox.list().some((e: OutboxEntry) => e.status === 'pending')
  }

  /** Replays the outbox once (or joins the replay under way); runs again if more was queued meanwhile. */
  replay(): Promise<void> {
    if (this.stopped) return Promise.resolve()
    if (this.replaying) {
      this.again = true
      return this.replaying
    }
    const run = async () => {
      do {
        this.again = false
        await this.replayOnce()
      } while (this.again && this.deps.connectivity.get().online)
    }
    this.replaying = run().finally(() => {
      this.replaying = null
    })
    return this.replaying
  }

  private async replayOnce(): Promise<void> {
    let s: ActiveSession
    try {
      s = await this.deps.session.acquire()
    } catch {
      return
    }
    const touched = new Set<Resource>()
    try {
      if (!this.hasPending(s)) return
      const result = await replayOutbox(
        s.outbox,
        async (entry: OutboxEntry) => {
          const input = (entry.input ?? {}) as QueuedInput
          const op = this.deps.buildOp(entry.channel, input.args)
          touched.add(op.resource)
          const res = await op.online(s, input.tempId)
          if (input.tempId && res.realId) return { tempId: input.tempId, realId: res.realId }
          return undefined
        },
        (e: unknown) => AppError.is(e) && isConnectivityError(e),
        () => this.emitOutbox(s)
      )
      if (result.stoppedOffline) this.deps.connectivity.markOffline('The server cannot be reached')
      else if (result.done > 0) this.deps.connectivity.markOnline()
      this.emitOutbox(s)
    } catch (e) {
      this.deps.log('Outbox replay failed', e)
    } finally {
      this.deps.session.release(s)
      for (const resource of touched) this.deps.emit('data.changed', { resource })
    }
  }

  /** No more replays; waits for the one under way. */
  async stop(): Promise<void> {
    this.stopped = true
    if (this.replaying) await this.replaying.catch(() => undefined)
  }

  async retry(s: Lease, id: string): Promise<OutboxEntry[]> {
    const entry = s.outbox.get(id)
    if (!entry) throw new AppError({ kind: 'not_found', message: 'That queued change is no longer waiting' })
    s.outbox.markPending(id)
    this.emitOutbox(s)
    await this.replay()
    return this.outboxList(s)
  }

  discard(s: Lease, id: string): OutboxEntry[] {
    const entry = s.outbox.get(id)
    if (!entry) throw new AppError({ kind: 'not_found', message: 'That queued change is no longer waiting' })
    if (entry.status === 'replaying') {
      throw new AppError({ kind: 'conflict', message: 'That change is being sent right now' })
    }
    s.outbox.remove(id)
    const input = (entry.input ?? {}) as QueuedInput
    try {
      const op = this.deps.buildOp(entry.channel, input.args)
      // A create that never reached the server: its placeholder goes too.
      if (input.tempId) s.cache.removeItem(op.resource, input.tempId)
      this.deps.emit('data.changed', { resource: op.resource })
    } catch (e) {
      this.deps.log('Could not undo a discarded change in the cache', e)
    }
    this.emitOutbox(s)
    return this.outboxList(s)
  }
}
