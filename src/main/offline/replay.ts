/**
 * Replaying the outbox once the server is reachable again.
 *
 * Rules:
 * - Entries run one at a time in seq order; entries queued while the replay runs are picked up.
 * - A connectivity error stops the replay: that entry goes back to 'pending' (its attempt counted).
 * - Any other error is a refusal: the entry becomes 'failed' with the error and its input intact,
 *   and the replay CONTINUES with later entries — except those that depend on a held-back entry.
 * - Dependency: an entry that creates something offline carries a temporary id ('local-…'). If
 *   that entry is failed (now or from before) or held back, every later entry whose input still
 *   mentions one of its temporary ids is HELD BACK: left 'pending' and not sent (sending it could
 *   only fail with "not found"). Once the user retries the failed create successfully, the remap
 *   rewrites those inputs and the next replay sends them; if the user discards it, they run and
 *   the server decides. The temporary ids of an entry are the one enqueue() was given (tempId)
 *   plus every 'local-…' string in its input.
 * - An entry left 'replaying' by a crash is sent again (it may have reached the server once;
 *   its Idempotency-Key is the same, see sync.ts).
 * - Only one replay per outbox at a time: a second call while one runs gets the same promise.
 * With `rules` (the app's replay; sync.ts):
 * - `classify` sorts a failure: 'offline' (certainly not processed: pending, stop), 'uncertain'
 *   (may have been stored: the entry becomes 'uncertain', held like a failed one, stop), 'wait'
 *   (429/503: pending until retryAt = now + max(Retry-After, back-off), stop) or 'refused'.
 * - An entry not sent after `maxAttempts` tries (waits for 429/503 not counted) becomes 'failed'
 *   with the reason; the user's retry starts the count over.
 * - `execute` may answer `{ held }`: it marked the entry 'conflict' or left it 'uncertain' itself.
 * - 'uncertain' entries are given to execute (which only checks the server, never re-sends them
 *   unless the user said so); 'conflict' entries wait for the user.
 */
import { APP_ERROR_KINDS, AppError, type AppErrorData, type AppErrorKind } from '../../shared/errors'
import type { OutboxEntry } from '../../shared/ipc'
import { containsString, stringsWithPrefix } from './merge'
import { LOCAL_ID_PREFIX, type OutboxStore } from './types'
import { uncertainError } from './writeRules'

export interface ReplayResult {
  done: number
  failed: number
  stoppedOffline: boolean
  /** Set when the replay stopped for an entry that waits (429/503): when to try again. */
  waitUntil?: string
}

export type FailureClass = 'offline' | 'uncertain' | 'wait' | 'refused'

export interface ReplayRules {
  classify(e: unknown, entry: OutboxEntry): FailureClass
  /** How long a 'wait' failure holds the entry, given how many waits it had (Retry-After ⊔ back-off). */
  waitMs(e: unknown, waits: number): number
  /** Default 5. */
  maxAttempts?: number
  now?: () => number
}

export type ExecuteResult = { tempId?: string; realId?: string; held?: 'conflict' | 'uncertain' } | void

/** "try again in N s" for a wait of `ms`. */
export function tryAgainIn(ms: number): string {
  return `try again in ${Math.max(1, Math.ceil(ms / 1000))} s`
}

const running = new WeakMap<OutboxStore, Promise<ReplayResult>>()

export function toErrorData(e: unknown): AppErrorData {
  if (AppError.is(e)) return e.toData()
  if (typeof e === 'object' && e !== null) {
    const { kind, message, status, code } = e as Record<string, unknown>
    if (typeof kind === 'string' && (APP_ERROR_KINDS as readonly string[]).includes(kind)) {
      const out: AppErrorData = {
        kind: kind as AppErrorKind,
        message: typeof message === 'string' ? message : kind
      }
      if (typeof status === 'number') out.status = status
      if (typeof code === 'string') out.code = code
      return out
    }
  }
  return { kind: 'internal', message: e instanceof Error ? e.message : String(e) }
}

function tempIdsOf(outbox: OutboxStore, entry: OutboxEntry): Set<string> {
  const ids = stringsWithPrefix(entry.input, LOCAL_ID_PREFIX)
  const own = outbox.tempIdOf(entry.id)
  if (own) ids.add(own)
  return ids
}

export function replayOutbox(
  outbox: OutboxStore,
  execute: (entry: OutboxEntry) => Promise<ExecuteResult>,
  isConnectivityError: (e: unknown) => boolean,
  onChange: () => void,
  rules?: ReplayRules
): Promise<ReplayResult> {
  const classify = (e: unknown, entry: OutboxEntry): FailureClass =>
    rules ? rules.classify(e, entry) : isConnectivityError(e) ? 'offline' : 'refused'
  const now = rules?.now ?? Date.now
  const maxAttempts = rules?.maxAttempts ?? 5
  const existing = running.get(outbox)
  if (existing) return existing
  const notify = () => {
    try {
      onChange()
    } catch {
      // a listener's failure never stops the replay
    }
  }
  const run = async (): Promise<ReplayResult> => {
    const result: ReplayResult = { done: 0, failed: 0, stoppedOffline: false }
    let lastSeq = -Infinity
    for (;;) {
      const blocked = new Set<string>()
      let next: OutboxEntry | null = null
      for (const e of outbox.list()) {
        const held =
          e.status === 'failed' ||
          e.status === 'conflict' ||
          (e.status === 'uncertain' && !rules) ||
          containsString(e.input, blocked) ||
          e.seq <= lastSeq
        if (held) {
          for (const id of tempIdsOf(outbox, e)) blocked.add(id)
          continue
        }
        next = e
        break
      }
      if (!next) break
      if (next.retryAt && Date.parse(next.retryAt) > now()) {
        // Its wait is not over: later entries wait behind it (order is kept).
        result.waitUntil = next.retryAt
        break
      }
      lastSeq = next.seq
      const wasUncertain = next.status === 'uncertain'
      if (!wasUncertain) outbox.markReplaying(next.id)
      notify()
      try {
        const res = await execute(next)
        if (res && res.held) {
          for (const id of tempIdsOf(outbox, next)) blocked.add(id)
          notify()
          continue
        }
        const tempId = (res && res.tempId) || outbox.tempIdOf(next.id) || undefined
        outbox.complete(next.id, res && res.realId && tempId ? { tempId, realId: res.realId } : undefined)
        result.done++
        notify()
      } catch (e) {
        const cls = classify(e, next)
        if (wasUncertain && cls !== 'refused') {
          // Only its check could not run: it stays uncertain (never sent again by a failure).
          if (cls === 'offline') result.stoppedOffline = true
          for (const id of tempIdsOf(outbox, next)) blocked.add(id)
          notify()
          if (cls === 'offline') break
          continue
        }
        if (wasUncertain) {
          // The check itself was refused (e.g. the list cannot be read): the user decides.
          for (const id of tempIdsOf(outbox, next)) blocked.add(id)
          notify()
          continue
        }
        const attempts = (outbox.get(next.id)?.attempts ?? 0) - (outbox.extraOf(next.id).throttled ?? 0)
        if (cls === 'wait') {
          const waits = (outbox.extraOf(next.id).throttled ?? 0) + 1
          const ms = Math.max(0, rules?.waitMs(e, waits - 1) ?? 0)
          const data = toErrorData(e)
          data.message = `${data.message.replace(/[:;,.]?\s*(try again|wait a moment).*$/i, '')}: ${tryAgainIn(ms)}`
          const retryAt = new Date(now() + ms).toISOString()
          outbox.markWaiting(next.id, data, retryAt, waits)
          result.waitUntil = retryAt
          notify()
          break
        }
        if ((cls === 'offline' || cls === 'uncertain') && attempts >= maxAttempts) {
          const data = toErrorData(e)
          data.message = `Not sent after ${attempts} attempts: ${data.message}`
          outbox.markFailed(next.id, data)
          result.failed++
          notify()
          if (cls === 'offline') result.stoppedOffline = true
          break
        }
        if (cls === 'offline' || cls === 'uncertain') {
          if (cls === 'uncertain') outbox.markUncertain(next.id, uncertainError(toErrorData(e)))
          else outbox.markPending(next.id)
          result.stoppedOffline = true
          notify()
          break
        }
        outbox.markFailed(next.id, toErrorData(e))
        result.failed++
        notify()
      }
    }
    return result
  }
  const promise = run().finally(() => running.delete(outbox))
  running.set(outbox, promise)
  return promise
}
