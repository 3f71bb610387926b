/**
 * The IPC call a piece of main-process work belongs to, carried by AsyncLocalStorage so that the
 * transport (api/transport.ts) finds the call's AbortSignal without every layer between the
 * handler and the HTTP request passing it on. `calls.cancel` aborts it: the request's socket is
 * destroyed and the call answers 'cancelled' at once.
 *
 * Background work started while a call runs (outbox replay, probes) must not die with that call:
 * it runs `detached`, outside any call.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { AppError } from '../shared/errors'

interface CallScope {
  signal: AbortSignal
}

const storage = new AsyncLocalStorage<CallScope>()

/** Runs `fn` as part of a call that `signal` cancels. */
export function runInCall<T>(signal: AbortSignal, fn: () => T): T {
  return storage.run({ signal }, fn)
}

/** Runs `fn` outside any call (work that outlives the call that started it). */
export function detached<T>(fn: () => T): T {
  return storage.exit(fn)
}

/** The signal of the call this code runs for, if any. */
export function currentSignal(): AbortSignal | undefined {
  return storage.getStore()?.signal
}

export const CANCELLED_MESSAGE = 'Cancelled'

export function cancelledError(): AppError {
  return new AppError({ kind: 'cancelled', message: CANCELLED_MESSAGE, code: 'cancelled' })
}

/** Throws 'cancelled' when the current call was cancelled (before a step that cannot be undone). */
export function throwIfCancelled(): void {
  if (currentSignal()?.aborted) throw cancelledError()
}

/**
 * The calls that can be cancelled now, by the id the renderer gave them. A cancel that arrives
 * before its call (the harness's two requests may cross) is remembered briefly, so the call is
 * cancelled as it starts.
 */
export class CallRegistry {
  private readonly running = new Map<string, AbortController>()
  private readonly early = new Set<string>()

  /** Registers a call; null when the id is already in use. */
  begin(id: string): AbortController | null {
    if (this.running.has(id)) return null
    const controller = new AbortController()
    this.running.set(id, controller)
    if (this.early.delete(id)) controller.abort()
    return controller
  }

  end(id: string, controller: AbortController): void {
    if (this.running.get(id) === controller) this.running.delete(id)
  }

  /** Aborts the call; false when no such call is running (it finished, or has not started). */
  cancel(id: string): boolean {
    const c = this.running.get(id)
    if (c) {
      c.abort()
      return true
    }
    this.early.add(id)
    if (this.early.size > 64) this.early.delete(this.early.values().next().value as string)
    return false
  }
}
