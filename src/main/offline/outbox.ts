/**
 * The outbox: changes made offline, kept in order until the server accepts or refuses them.
 * Every write is its own transaction committed with synchronous=FULL, so an enqueued edit
 * survives even a power cut once enqueue() has returned.
 */
import { randomUUID } from 'node:crypto'
import { errorData, type AppErrorData } from '../../shared/errors'
import type { OutboxEntry, OutboxStatus } from '../../shared/ipc'
import { type Db, preparedOnUse, writeTransaction } from './db'
import { replaceString } from './merge'
import type { NewOutboxEntry, OutboxExtra, OutboxStore } from './types'

const COLUMNS = 'seq, id, channel, label, input, created_at, status, error, attempts, extra'
const STATUSES: readonly OutboxStatus[] = ['pending', 'replaying', 'failed', 'uncertain', 'conflict']

function parseExtra(v: unknown): OutboxExtra {
  if (typeof v !== 'string') return {}
  try {
    const x = JSON.parse(v) as unknown
    return typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as OutboxExtra) : {}
  } catch {
    return {}
  }
}

function toEntry(r: unknown[]): OutboxEntry {
  const [seq, id, channel, label, input, createdAt, status, error, attempts, extraText] = r
  const extra = parseExtra(extraText)
  const entry: OutboxEntry = {
    id: String(id),
    seq: Number(seq),
    channel: String(channel),
    label: String(label),
    input: typeof input === 'string' ? (JSON.parse(input) as unknown) : undefined,
    createdAt: String(createdAt),
    status: STATUSES.includes(status as OutboxStatus) ? (status as OutboxStatus) : 'pending',
    attempts: Number(attempts) || 0
  }
  if (typeof error === 'string') entry.error = JSON.parse(error) as AppErrorData
  if (extra.retryAt) entry.retryAt = extra.retryAt
  if (extra.server !== undefined) entry.server = extra.server
  return entry
}

function serialize(input: unknown): string | null {
  if (input === undefined) return null
  try {
    const json = JSON.stringify(input)
    return json === undefined ? null : json
  } catch (e) {
    throw new TypeError(
      `An outbox input must be plain JSON data (${e instanceof Error ? e.message : String(e)})`
    )
  }
}

export class SqliteOutboxStore implements OutboxStore {
  private readonly s

  constructor(private readonly db: Db) {
    // Prepared on first use: a store opened to read a list runs none of them.
    this.s = preparedOnUse(db, {
      insert: () =>
        db.prepare(
          `INSERT INTO outbox (id, channel, label, input, created_at, status, error, attempts, temp_id, extra)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
        ),
      list: () => db.prepare(`SELECT ${COLUMNS} FROM outbox ORDER BY seq`).raw(true),
      get: () => db.prepare(`SELECT ${COLUMNS} FROM outbox WHERE id = ?`).raw(true),
      tempId: () => db.prepare('SELECT temp_id FROM outbox WHERE id = ?').raw(true),
      setStatus: () => db.prepare('UPDATE outbox SET status = ?, error = ? WHERE id = ?'),
      extra: () => db.prepare('SELECT extra FROM outbox WHERE id = ?').raw(true),
      setExtra: () => db.prepare('UPDATE outbox SET extra = ? WHERE id = ?'),
      resetAttempts: () => db.prepare('UPDATE outbox SET attempts = 0 WHERE id = ?'),
      replaying: () =>
        db.prepare(
          "UPDATE outbox SET status = 'replaying', error = NULL, attempts = attempts + 1 WHERE id = ?"
        ),
      remove: () => db.prepare('DELETE FROM outbox WHERE id = ?'),
      mentions: () => db.prepare('SELECT id, input FROM outbox WHERE instr(input, ?) > 0').raw(true),
      setInput: () => db.prepare('UPDATE outbox SET input = ? WHERE id = ?'),
      setTempId: () => db.prepare('UPDATE outbox SET temp_id = ? WHERE temp_id = ?')
    })
  }

  /** One durable transaction: FULL sync for this commit, NORMAL again after. */
  private durable<R>(fn: () => R): R {
    this.db.exec('PRAGMA synchronous = FULL')
    try {
      return writeTransaction(this.db, fn)
    } finally {
      this.db.exec('PRAGMA synchronous = NORMAL')
    }
  }

  /** Queues a change (see NewOutboxEntry). */
  enqueue(e: NewOutboxEntry): OutboxEntry {
    if (typeof e.channel !== 'string' || !e.channel) throw new TypeError('An outbox entry needs a channel')
    const input = serialize(e.input)
    const id = `ob-${randomUUID()}`
    const createdAt = new Date().toISOString()
    const extra: OutboxExtra = { key: randomUUID(), ...(e.extra ?? {}) }
    this.durable(() => {
      this.s.insert.run(
        id,
        e.channel,
        String(e.label ?? ''),
        input,
        createdAt,
        e.uncertain ? 'uncertain' : 'pending',
        e.uncertain ? JSON.stringify(errorData(e.uncertain)) : null,
        e.attempts ?? 0,
        e.tempId ?? null,
        JSON.stringify(extra)
      )
    })
    const entry = this.get(id)
    if (!entry) throw new Error('The outbox entry was not stored')
    return entry
  }

  list(): OutboxEntry[] {
    return (this.s.list.all() as unknown[][]).map(toEntry)
  }

  get(id: string): OutboxEntry | null {
    const row = this.s.get.get(id) as unknown[] | undefined
    return row ? toEntry(row) : null
  }

  /** The temporary id this entry creates, when enqueue() was told. */
  tempIdOf(id: string): string | null {
    const row = this.s.tempId.get(id) as unknown[] | undefined
    return row && typeof row[0] === 'string' ? row[0] : null
  }

  /** Marks the entry as being sent; counts the attempt. */
  markReplaying(id: string): void {
    this.durable(() => this.s.replaying.run(id))
  }

  markFailed(id: string, error: AppErrorData): void {
    this.durable(() => this.s.setStatus.run('failed', JSON.stringify(errorData(error)), id))
  }

  /** Pending again; `resetAttempts` when the user asked (the attempt cap starts over). */
  markPending(id: string, opts: { resetAttempts?: boolean } = {}): void {
    this.durable(() => {
      this.s.setStatus.run('pending', null, id)
      if (opts.resetAttempts) this.s.resetAttempts.run(id)
      this.patchInside(id, { retryAt: undefined, server: undefined })
      if (opts.resetAttempts) this.patchInside(id, { throttled: undefined })
    })
  }

  /** Pending, with the reason it waits and not before `retryAt` (a 429/503 or back-off). */
  markWaiting(id: string, error: AppErrorData, retryAt: string, throttled: number): void {
    this.durable(() => {
      this.s.setStatus.run('pending', JSON.stringify(errorData(error)), id)
      this.patchInside(id, { retryAt, throttled })
    })
  }

  /** May already be on the server: not sent again without a check or the user's word. */
  markUncertain(id: string, error: AppErrorData): void {
    this.durable(() => this.s.setStatus.run('uncertain', JSON.stringify(errorData(error)), id))
  }

  /** The item moved on the server since the edit: the user compares and decides. */
  markConflict(id: string, error: AppErrorData, server: unknown): void {
    this.durable(() => {
      this.s.setStatus.run('conflict', JSON.stringify(errorData(error)), id)
      this.patchInside(id, { server })
    })
  }

  extraOf(id: string): OutboxExtra {
    const row = this.s.extra.get(id) as unknown[] | undefined
    return row ? parseExtra(row[0]) : {}
  }

  patchExtra(id: string, patch: Partial<OutboxExtra>): void {
    this.durable(() => this.patchInside(id, patch))
  }

  private patchInside(id: string, patch: Partial<OutboxExtra>): void {
    const next: Record<string, unknown> = { ...this.extraOf(id) }
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) delete next[k]
      else next[k] = v
    }
    this.s.setExtra.run(JSON.stringify(next), id)
  }

  remove(id: string): void {
    this.durable(() => this.s.remove.run(id))
  }

  remapId(tempId: string, realId: string): void {
    this.durable(() => this.remapInside(tempId, realId))
  }

  /** Removes a replayed entry and remaps the id it created, in one transaction (no half state after a crash). */
  complete(id: string, remap?: { tempId?: string | undefined; realId?: string | undefined }): void {
    this.durable(() => {
      this.s.remove.run(id)
      if (remap?.tempId && remap.realId) this.remapInside(remap.tempId, remap.realId)
    })
  }

  private remapInside(tempId: string, realId: string): void {
    if (!tempId || tempId === realId) return
    const needle = JSON.stringify(tempId)
    for (const [id, input] of this.s.mentions.all(needle) as unknown[][]) {
      const next = replaceString(JSON.parse(String(input)), tempId, realId)
      this.s.setInput.run(JSON.stringify(next), id)
    }
    this.s.setTempId.run(realId, tempId)
  }
}
