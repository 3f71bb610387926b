/**
 * The `Idempotency-Key` of the write under way. A change (one outbox entry, or one direct write
 * attempt that may become one) has ONE key, kept with it and sent on every attempt; the transport
 * reads it from here so the resource modules need not thread it through each call. A change that
 * makes several requests sends `<key>`, `<key>.2`, `<key>.3`… in order, so each request keeps its
 * own stable key across attempts and a server that honours keys never answers the second request
 * with the first one's answer.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

interface KeyScope {
  key: string
  used: number
}

const scope = new AsyncLocalStorage<KeyScope>()

/** Runs `fn` with `key` as the idempotency key of the writes it makes. */
export function withIdempotencyKey<R>(key: string, fn: () => Promise<R>): Promise<R> {
  return scope.run({ key, used: 0 }, fn)
}

/** The key for the next write request of the current change, or null outside one. */
export function nextIdempotencyKey(): string | null {
  const s = scope.getStore()
  if (!s) return null
  s.used += 1
  return s.used === 1 ? s.key : `${s.key}.${s.used}`
}
