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
 * - An entry left 'replaying' by a crash is sent again (it may have reached the server once).
 * - Only one replay per outbox at a time: a second call while one runs gets the same promise.
 */
import { APP_ERROR_KINDS, AppError, type AppErrorData, type AppErrorKind } from '../../shared/errors'
import type { OutboxEntry } from '../../shared/ipc'
import { containsString, stringsWithPrefix } from './merge'
import { LOCAL_ID_PREFIX, type OutboxStore } from './types'

export interface ReplayResult {
  done: number
  failed: number
  stoppedOffline: boolean
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
  execute: (entry: OutboxEntry) => Promise<{ tempId?: string; realId?: string } | void>,
  isConnectivityError: (e: unknown) => boolean,
  onChange: () => void
): Promise<ReplayResult> {
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
        const held = e.status === 'failed' || containsString(e.input, blocked) || e.seq <= lastSeq
        if (held) {
          for (const id of tempIdsOf(outbox, e)) blocked.add(id)
          continue
        }
        next = e
        break
      }
      if (!next) break
      lastSeq = next.seq
      outbox.markReplaying(next.id)
      notify()
      try {
        const res = await execute(next)
        const tempId = (res && res.tempId) || outbox.tempIdOf(next.id) || undefined
        outbox.complete(next.id, res && res.realId && tempId ? { tempId, realId: res.realId } : undefined)
        result.done++
        notify()
      } catch (e) {
        if (isConnectivityError(e)) {
          outbox.markPending(next.id)
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
