/**
 * Reads and writes through the network, the cache and the outbox:
 * - reads: network first (cache updated), cache on `cacheOnly` or when the server cannot be
 *   reached, the local catalogue when the server cannot list a resource;
 * - writes: online → API then cache; unreachable → outbox + optimistic cache change (the sync
 *   coordinator, sync.ts, replays the outbox through the same online path).
 */
import { randomUUID } from 'node:crypto'
import { AppError, isConnectivityError } from '../shared/errors'
import type { EventName, IpcEvents, OutboxEntry, Read, Write } from '../shared/ipc'
import { ACCEPTED_WITHOUT_ANSWER } from './api/endpoints'
import { nowTimestamp as now } from './clock'
import { isLocalId, LOCAL_ID_PREFIX, outboxSnapshot, type Item, type Resource } from './offline'
import { placeItem } from './offline/scopes'
import { removalMark, removedSince } from './offline/removals'
import type { ListWriter, OutboxExtra } from './offline/types'
import type { ListRead, ListText } from './offline/listText'
import { ListStream } from './offline/listStream'
import { outcomeUnknown, uncertainError } from './offline/writeRules'
import { withIdempotencyKey } from './api/idempotency'
import type { Lease, PageSink, ReadOptions, WriteOp } from './resources/kit'
import type { ConnectivityMonitor } from './connectivity'
import type { EventBus } from './events'

/** Plain JSON data: drops undefined, functions, class instances become objects. */
function plain<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T
}

export interface CachedApiDeps {
  connectivity: ConnectivityMonitor
  events: EventBus
  emit: <E extends EventName>(event: E, payload: IpcEvents[E]) => void
  log: (message: string, err?: unknown) => void
  /**
   * A list in one answer from a server, planned past this many items, is answered as it comes
   * (offline/listStream.ts): the items of a piece of an answer (answerPieces.ts). None: once written.
   */
  streamAfter?: number
}

export interface QueuedInput {
  args: unknown
  tempId?: string
}

export class CachedApi {
  constructor(
    private readonly deps: CachedApiDeps,
    private readonly buildOp: (channel: string, args: unknown) => WriteOp
  ) {}

  // ------------------------------------------------------------------------------------------
  // Cache helpers
  // ------------------------------------------------------------------------------------------

  /** Tells the renderer these lists changed on the server (an import): views read them again. */
  announce(resources: readonly Resource[]): void {
    for (const resource of resources) this.deps.emit('data.changed', { resource })
  }

  private synced(s: Lease, at: string): void {
    s.cache.setMeta('lastSyncedAt', at)
    this.deps.connectivity.markOnline(at)
    if (this.hasPending(s)) this.deps.events.emit('changes.waiting', undefined)
  }

  private offline(err: AppError): void {
    this.deps.connectivity.markOffline(err.message)
  }

  // ------------------------------------------------------------------------------------------
  // Reads
  // ------------------------------------------------------------------------------------------

  /**
   * A list: from the network (each page planned against the cache as it comes, the list written
   * once whole; its items answered as their rows' JSON, see offline/listText.ts), else from the
   * cache, or the local catalogue (its items picked by `opts.filter`) when the server cannot list
   * the resource. `fetch` hands the pages to `page` as they come; `opts.view` is what is kept of
   * each item.
   */
  async readList<T extends Item>(
    s: Lease,
    resource: Resource,
    scope: string,
    fetch: (page: PageSink<T>) => Promise<void>,
    opts: ReadOptions<T> = {}
  ): Promise<ListRead<T>> {
    const filter = opts.filter ?? (() => true)
    // As its rows' JSON, read a step at a time: main parses none of it (offline/listRead.ts).
    const fromCache = async (offline: boolean): Promise<ListRead<T> | null> => {
      const hit = await s.cache.listText<T>(resource, scope)
      if (hit) return { data: hit.value, source: 'cache', syncedAt: hit.syncedAt, offline }
      return null
    }
    const catalogue = (offline: boolean): Read<T[]> => ({
      data: (s.cache.catalogue(resource) as T[]).filter(filter),
      source: 'cache',
      syncedAt: null,
      offline,
      catalogue: true
    })
    if (opts.cacheOnly) {
      const online = this.deps.connectivity.get().online
      return (await fromCache(!online)) ?? { data: [], source: 'cache', syncedAt: null, offline: !online }
    }
    const mark = removalMark(s.cache)
    let writer: { at: string; list: ListWriter } | null = null
    // Made when the first page comes: its time is the list's sync time.
    const start = () => {
      const at = now()
      return { at, list: s.cache.listWriter(resource, scope, at) }
    }
    // A list in one answer (a server without paging) is answered as it comes once more than a
    // piece is planned (listStream.ts). Not a paged one: on two cores the page's parse of page one
    // slowed page two's making (the page had it 16 ms later), and at 100,000 agents main's
    // collections grew by half, with blocks of 44–78 ms (none over 40 without; 2026-11-29).
    const streamed: { stream: ListStream<T> | null; at: string; began: () => void } = {
      stream: null,
      at: '',
      began: () => {}
    }
    const began = new Promise<void>((resolve) => (streamed.began = resolve))
    const feed = (w: { at: string; list: ListWriter }) => {
      const after = this.deps.streamAfter
      if (!streamed.stream) {
        if (after === undefined || w.list.order.length <= after) return
        streamed.stream = new ListStream<T>(w.list)
        streamed.at = w.at
        streamed.began()
      }
      streamed.stream.feed()
    }
    const page: PageSink<T> = async (items, info = {}) => {
      writer ??= start()
      const { view } = opts
      if (view) await writer.list.add(items.map(view), { digest: info.digest })
      else await writer.list.add(items, info)
      if (info.whole === true) feed(writer)
    }
    // A page of the answer stored last may be taken by its digest, unparsed (not through a view:
    // what is stored is then not the items as they came).
    if (!opts.view)
      page.known = {
        expects: (k) => (writer ??= start()).list.expects(k),
        next: () => (writer ??= start()).list.expected(),
        take: async (digest, { whole, count }) => {
          const w = (writer ??= start())
          const from = w.list.order.length
          if (!(await w.list.takeKnown(digest, count))) return null
          if (whole) feed(w)
          return { count: w.list.order.length - from, first: w.list.order[from] }
        }
      }
    const fetched = fetch(page)
    try {
      await Promise.race([fetched, began])
    } catch (e) {
      if (!AppError.is(e)) throw e
      if (e.kind === 'not_offered') return catalogue(!this.deps.connectivity.get().online)
      if (isConnectivityError(e)) {
        this.offline(e)
        const cached = await fromCache(true)
        if (cached) return cached
        const cat = catalogue(true)
        if (cat.data.length > 0) return cat
      }
      throw e
    }
    const written = async () => {
      await fetched
      writer ??= start()
      const { at, list } = writer
      // Deleted while the answer was on its way: stays deleted.
      const leaveOut =
        removalMark(s.cache) !== mark ? (id: string) => removedSince(s.cache, resource, id, mark) : undefined
      // Items the server does not know yet (waiting in the outbox) stay visible, first. They exist
      // only while the outbox holds something, so they are looked for only then (read alone: the
      // whole previous list was read for them, 1.4–1.8 s of main at 100,000 agents).
      const first = s.outbox.list().length > 0 ? s.cache.localMembers<T>(resource, scope) : []
      const data = (await list.finish(leaveOut ? { first, leaveOut } : { first })) as ListText<T>
      this.synced(s, at)
      return { data, at, amended: leaveOut !== undefined || first.length > 0 }
    }
    const { stream, at } = streamed
    if (!stream) {
      const { data, at } = await written()
      return { data, source: 'network', syncedAt: at, offline: false }
    }
    // The session is held until the list is written (core.ts: ComingListText.busy).
    stream.list.busy = written().then(
      ({ data, amended }) => stream.end(data, amended),
      (e: unknown) => stream.fail(this.brokeOff(e))
    )
    return { data: stream.list, source: 'network', syncedAt: at, offline: false }
  }

  /**
   * What a list answered as it came ends with when its answer failed: a server that could not be
   * reached any more is gone, which the page asks again (answer_gone), the cache then answering.
   */
  private brokeOff(e: unknown): unknown {
    if (!AppError.is(e) || !isConnectivityError(e)) return e
    this.offline(e)
    return new AppError({
      kind: e.kind,
      message: e.message,
      code: 'answer_gone',
      ...(e.status !== undefined ? { status: e.status } : {})
    })
  }

  async readItem<T extends Item>(
    s: Lease,
    resource: Resource,
    id: string,
    fetch: () => Promise<T>,
    opts: ReadOptions<T> = {}
  ): Promise<Read<T>> {
    const fromCache = (offline: boolean): Read<T> | null => {
      const hit = s.cache.getItem(resource, id)
      return hit ? { data: hit.value as T, source: 'cache', syncedAt: hit.syncedAt, offline } : null
    }
    const notCached = () =>
      new AppError({ kind: 'not_found', message: 'Not in the local copy yet', code: 'not_cached' })
    if (opts.cacheOnly || isLocalId(id)) {
      const online = this.deps.connectivity.get().online
      const hit = fromCache(!online)
      if (hit) return hit
      throw notCached()
    }
    let item: T
    const mark = removalMark(s.cache)
    try {
      item = await fetch()
    } catch (e) {
      if (!AppError.is(e)) throw e
      if (e.kind === 'not_found') s.cache.removeItem(resource, id)
      if (isConnectivityError(e)) {
        this.offline(e)
        const hit = fromCache(true)
        if (hit) return hit
      }
      throw e
    }
    if (removedSince(s.cache, resource, id, mark))
      throw new AppError({ kind: 'not_found', message: 'Deleted meanwhile', code: 'deleted' })
    const at = now()
    const view = opts.view ?? ((x: T) => x)
    const merged = placeItem(s.cache, resource, view(item), at)
    this.synced(s, at)
    return { data: merged, source: 'network', syncedAt: at, offline: false }
  }

  // ------------------------------------------------------------------------------------------
  // Writes
  // ------------------------------------------------------------------------------------------

  private hasPending(s: Lease): boolean {
    return s.outbox.list().some((e: OutboxEntry) => e.status === 'pending')
  }

  private pendingLocalRef(s: Lease, op: WriteOp): boolean {
    if (!op.refs.some(isLocalId)) return false
    return s.outbox.list().length > 0
  }

  /**
   * What a change keeps for its replay, taken before it is first sent: its Idempotency-Key, the
   * `updatedAt` an update started from (the one of an earlier queued edit of the same item, else
   * the cached server value), and for a create the same-named items known before the attempt.
   */
  private extraFor(s: Lease, op: WriteOp): OutboxExtra {
    const extra: OutboxExtra = { key: randomUUID() }
    if (op.kind === 'update' && op.itemId) {
      const itemId = op.itemId
      extra.itemId = itemId
      const earlier = s.outbox.list().find((e) => s.outbox.extraOf(e.id).itemId === itemId)
      const hit = s.cache.getItem<Item>(op.resource, itemId)
      const base = earlier
        ? s.outbox.extraOf(earlier.id).base
        : hit && hit.syncedAt !== null && typeof hit.value.updatedAt === 'string'
          ? hit.value.updatedAt
          : undefined
      if (base) extra.base = base
    }
    if (op.kind === 'create' && op.known) {
      const name = op.known(s).name
      extra.attemptedAt = new Date().toISOString()
      if (typeof name === 'string')
        extra.knownIds = s.cache
          .catalogue<Item>(op.resource)
          .filter((i) => i.name === name)
          .map((i) => i.id)
    }
    return extra
  }

  async write<T>(s: Lease, channel: string, args: unknown): Promise<Write<T>> {
    const op = this.buildOp(channel, args)
    const mustQueue = !this.deps.connectivity.get().online || this.pendingLocalRef(s, op)
    const extra = this.extraFor(s, op)
    if (!mustQueue) {
      try {
        const { data } = await withIdempotencyKey(extra.key ?? randomUUID(), () => op.online(s, undefined))
        this.deps.connectivity.markOnline()
        this.deps.emit('data.changed', { resource: op.resource })
        return { status: 'done', data: plain(data) as T }
      } catch (e) {
        if (AppError.is(e) && e.code === ACCEPTED_WITHOUT_ANSWER) {
          // Stored, but the answer had no item: the stores refetch the list to show it.
          this.deps.connectivity.markOnline()
          this.deps.emit('data.changed', { resource: op.resource })
        }
        // Cancelled after it was sent, the change may still have been made: refetch to show it.
        if (AppError.is(e) && e.kind === 'cancelled')
          this.deps.emit('data.changed', { resource: op.resource })
        if (!AppError.is(e) || !isConnectivityError(e)) throw e
        this.offline(e)
        // It may have been stored: kept as 'uncertain' with the same key, never sent again blindly.
        if (op.kind === 'create' && outcomeUnknown(e)) return this.queue<T>(s, channel, args, op, extra, e)
      }
    }
    delete extra.attemptedAt
    return this.queue<T>(s, channel, args, op, extra)
  }

  private queue<T>(
    s: Lease,
    channel: string,
    args: unknown,
    op: WriteOp,
    extra: OutboxExtra,
    uncertain?: AppError
  ): Write<T> {
    const tempId = op.kind === 'create' ? `${LOCAL_ID_PREFIX}${randomUUID()}` : undefined
    const label = op.label(s)
    const data = op.optimistic(s, tempId)
    const input: QueuedInput = tempId ? { args, tempId } : { args }
    const entry = s.outbox.enqueue(
      uncertain
        ? { channel, label, input, extra, uncertain: uncertainError(uncertain.toData()), attempts: 1 }
        : { channel, label, input, extra }
    )
    this.deps.emit('outbox.changed', outboxSnapshot(s.outbox))
    this.deps.emit('data.changed', { resource: op.resource })
    this.deps.events.emit('changes.waiting', undefined)
    return { status: 'queued', data: plain(data) as T, outboxId: entry.id }
  }
}
