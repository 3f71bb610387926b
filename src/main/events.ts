/**
 * Main's own events (not the renderer's): what parts announce and others act on, so the core
 * wires nothing by forward reference. The sync coordinator (sync.ts) is the main listener.
 */
import type { ActiveSession } from './activeSession'
import { detached } from './callContext'

export interface MainEvents {
  /** A session opened (sign-in, or restored at start). */
  'session.opened': ActiveSession
  /** The current session closed (sign-out, ended, switched). */
  'session.closed': undefined
  /** The server answers again after being unreachable. */
  'connection.back': undefined
  /** Changes wait in the outbox (one was queued, or a read found some while online). */
  'changes.waiting': undefined
}

export type MainEventName = keyof MainEvents

export interface EventBus {
  on<E extends MainEventName>(event: E, listener: (payload: MainEvents[E]) => void): () => void
  emit<E extends MainEventName>(event: E, payload: MainEvents[E]): void
}

/**
 * Listeners run in order; one that throws is logged and the others still run. They run outside
 * the IPC call that emitted (callContext.detached): cancelling that call does not stop the work
 * they start (an outbox replay, a probe).
 */
export function createEventBus(log: (message: string, err?: unknown) => void): EventBus {
  const listeners = new Map<MainEventName, Set<(payload: never) => void>>()
  return {
    on(event, listener) {
      const set = listeners.get(event) ?? new Set()
      listeners.set(event, set)
      set.add(listener)
      return () => {
        set.delete(listener)
      }
    },
    emit(event, payload) {
      for (const l of [...(listeners.get(event) ?? [])]) {
        try {
          detached(() => (l as (p: typeof payload) => void)(payload))
        } catch (e) {
          log(`A listener failed on ${event}`, e)
        }
      }
    }
  }
}
