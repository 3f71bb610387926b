/**
 * The sync coordinator: sends the outbox when the server can take it. It listens to main's events
 * (events.ts): a session opened (connectivity reset; changes left from an earlier run go out), the
 * connection is back or changes wait (replay), the session closed (probing stops). The user's
 * retry and discard of a queued change come here too.
 */
import { AppError, isConnectivityError } from '../shared/errors'
import type { EventName, IpcEvents, OutboxEntry, OutboxResolution } from '../shared/ipc'
import { withIdempotencyKey } from './api/idempotency'
import type { ActiveSession } from './activeSession'
import type { QueuedInput } from './cachedApi'
import type { ConnectivityMonitor } from './connectivity'
import type { EventBus } from './events'
import { outboxSnapshot, replayOutbox, type Resource } from './offline'
import type { ExecuteResult, FailureClass } from './offline/replay'
import type { Item } from './offline/types'
import { findCreated, isThrottle, outcomeUnknown, patchApplied, throttleWaitMs } from './offline/writeRules'
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
  /** Attempts before an entry is 'failed' (default 5) and the back-off of 429/503 waits. */
  maxAttempts?: number
  backoff?: { baseMs?: number; capMs?: number; random?: () => number }
}

/**
 * A check's read: null when the server cannot answer it for another reason than reachability
 * (the operation is not offered, the item is gone…): the change then goes out unchecked and the
 * server decides. Unreachable: thrown, so the entry waits.
 */
async function checked<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read
  } catch (e) {
    if (AppError.is(e) && isConnectivityError(e)) throw e
    return null
  }
}

/** The item's `updatedAt` is not the one the edit started from (compared as instants when both parse). */
function moved(now: unknown, base: string): boolean {
  if (typeof now !== 'string') return false
  const a = Date.parse(now)
  const b = Date.parse(base)
  return Number.isFinite(a) && Number.isFinite(b) ? a !== b : now !== base
}

export class SyncCoordinator {
  private replaying: Promise<void> | null = null
  private again = false
  private stopped = false
  private waitTimer: ReturnType<typeof setTimeout> | null = null

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
    const waiting = ['pending', 'replaying', 'uncertain']
    if (s.outbox.list().some((e: OutboxEntry) => waiting.includes(e.status))) {
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
    return s.outbox.list().some((e: OutboxEntry) => e.status === 'pending' || e.status === 'uncertain')
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
        (entry: OutboxEntry) => this.execute(s, entry, touched),
        (e: unknown) => AppError.is(e) && isConnectivityError(e),
        () => this.emitOutbox(s),
        {
          classify: (e, entry) => this.classify(e, entry),
          waitMs: (e, n) => throttleWaitMs(e, n, this.deps.backoff),
          maxAttempts: this.deps.maxAttempts ?? 5
        }
      )
      if (result.waitUntil) this.wakeAt(result.waitUntil)
      else if (result.stoppedOffline) this.deps.connectivity.markOffline('The server cannot be reached')
      else if (result.done > 0) this.deps.connectivity.markOnline()
      this.emitOutbox(s)
    } catch (e) {
      this.deps.log('Outbox replay failed', e)
    } finally {
      this.deps.session.release(s)
      for (const resource of touched) this.deps.emit('data.changed', { resource })
    }
  }

  private classify(e: unknown, entry: OutboxEntry): FailureClass {
    if (isThrottle(e)) return 'wait'
    if (!AppError.is(e) || !isConnectivityError(e)) return 'refused'
    const input = (entry.input ?? {}) as QueuedInput
    const creates = this.deps.buildOp(entry.channel, input.args).kind === 'create'
    return creates && outcomeUnknown(e) ? 'uncertain' : 'offline'
  }

  /** Replays once more when a 429/503 wait is over. */
  private wakeAt(at: string): void {
    if (this.waitTimer) clearTimeout(this.waitTimer)
    const ms = Math.max(0, Date.parse(at) - Date.now())
    this.waitTimer = setTimeout(() => {
      this.waitTimer = null
      if (!this.stopped) void this.replay()
    }, ms + 5)
    this.waitTimer.unref?.()
  }

  /**
   * One entry: an 'uncertain' create is looked for on the server (adopted when found, else left
   * for the user); an update is checked against the item's `updatedAt` (a conflict when it moved,
   * done when the server already has it); then it is sent with its own Idempotency-Key.
   */
  private async execute(s: Lease, entry: OutboxEntry, touched: Set<Resource>): Promise<ExecuteResult> {
    const input = (entry.input ?? {}) as QueuedInput
    const op = this.deps.buildOp(entry.channel, input.args)
    touched.add(op.resource)
    const extra = s.outbox.extraOf(entry.id)
    const done = (res: { realId?: string }): ExecuteResult =>
      input.tempId && res.realId ? { tempId: input.tempId, realId: res.realId } : undefined
    if (!extra.force && op.kind === 'create' && (entry.status === 'uncertain' || extra.attemptedAt)) {
      const list = op.find && op.known && op.adopt ? await checked(op.find(s)) : null
      const found = list && op.known ? findCreated(list, op.known(s), extra) : null
      if (found && op.adopt) return done(op.adopt(s, found, input.tempId))
      if (entry.status === 'uncertain') return { held: 'uncertain' }
    }
    const current = !extra.force && op.kind === 'update' && op.current ? await checked(op.current(s)) : null
    if (current && op.known && op.adopt) {
      if (patchApplied(current, op.known(s))) return done(op.adopt(s, current, undefined))
      if (extra.base && moved(current.updatedAt, extra.base)) {
        const message = 'Changed on the server since you edited it: keep yours, take the server’s, or compare'
        s.outbox.markConflict(entry.id, { kind: 'conflict', message, code: 'edit_conflict' }, current)
        return { held: 'conflict' }
      }
    }
    if (op.kind === 'create' && !extra.attemptedAt)
      s.outbox.patchExtra(entry.id, { attemptedAt: new Date().toISOString() })
    if (extra.force) s.outbox.patchExtra(entry.id, { force: undefined })
    const res = await withIdempotencyKey(extra.key ?? entry.id, () => op.online(s, input.tempId))
    if (op.kind === 'update' && op.itemId) this.rebase(s, entry.id, op.itemId, res.data)
    return done(res)
  }

  /** Later edits of the same item now start from what the server answered. */
  private rebase(s: Lease, doneId: string, itemId: string, data: unknown): void {
    const at = (data as Partial<Item> | null)?.updatedAt
    for (const e of s.outbox.list()) {
      if (e.id === doneId || s.outbox.extraOf(e.id).itemId !== itemId) continue
      s.outbox.patchExtra(e.id, { base: typeof at === 'string' ? at : undefined })
    }
  }

  /** The user's word on an 'uncertain' or 'conflict' entry. */
  async resolve(s: Lease, id: string, action: OutboxResolution): Promise<OutboxEntry[]> {
    const entry = s.outbox.get(id)
    if (!entry) throw new AppError({ kind: 'not_found', message: 'That queued change is no longer waiting' })
    if (entry.status === 'replaying') {
      throw new AppError({ kind: 'conflict', message: 'That change is being sent right now' })
    }
    if (action === 'sendAnyway') {
      s.outbox.markPending(id, { resetAttempts: true })
      s.outbox.patchExtra(id, { force: true })
      this.emitOutbox(s)
      await this.replay()
      return this.outboxList(s)
    }
    // 'takeServer': the server's item replaces the edit in the cache.
    const input = (entry.input ?? {}) as QueuedInput
    const op = this.deps.buildOp(entry.channel, input.args)
    const server = s.outbox.extraOf(id).server
    s.outbox.remove(id)
    if (server && typeof server === 'object' && op.adopt) {
      op.adopt(s, server as Item, undefined)
    } else if (op.itemId && op.current) {
      try {
        op.adopt?.(s, await op.current(s), undefined)
      } catch (e) {
        this.deps.log('Could not refresh the item from the server', e)
      }
    }
    if (input.tempId) s.cache.removeItem(op.resource, input.tempId)
    this.deps.emit('data.changed', { resource: op.resource })
    this.emitOutbox(s)
    return this.outboxList(s)
  }

  /** No more replays; waits for the one under way. */
  async stop(): Promise<void> {
    this.stopped = true
    if (this.waitTimer) clearTimeout(this.waitTimer)
    if (this.replaying) await this.replaying.catch(() => undefined)
  }

  async retry(s: Lease, id: string): Promise<OutboxEntry[]> {
    const entry = s.outbox.get(id)
    if (!entry) throw new AppError({ kind: 'not_found', message: 'That queued change is no longer waiting' })
    s.outbox.markPending(id, { resetAttempts: true })
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
