/**
 * The rules for a write that did not get a clear answer (issue 12, items 14, 15, 19):
 * - outcome unknown: a timeout, or the connection cut after the request may have been read
 *   (reset, broken pipe, a 504 from a gateway): the server may have stored it;
 * - throttled: 429, or 503 (the server asked to come back later, `Retry-After`);
 * - back-off: exponential with a cap and jitter, never shorter than what the server asked;
 * - the checks that find out what happened before sending again: a created item found by name
 *   and type, an update already applied, an item that moved since the edit started.
 */
import { AppError, isConnectivityError } from '../../shared/errors'
import type { Item } from './types'

/** Node codes that mean the request never left (nothing can have been stored). */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN'
])

/** True when the request certainly never reached a server (refused, no such host, no route). */
export function neverSent(e: unknown): boolean {
  return AppError.is(e) && e.kind === 'network' && NOT_SENT_CODES.has(e.code ?? '')
}

/** True when a write failed in a way that leaves its outcome unknown. */
export function outcomeUnknown(e: unknown): boolean {
  if (!AppError.is(e)) return false
  if (e.kind === 'timeout') return true
  if (e.kind === 'network')
    return !NOT_SENT_CODES.has(e.code ?? '') && !/^(CERT_|ERR_TLS|ERR_SSL)/.test(e.code ?? '')
  return e.kind === 'server' && e.status === 504
}

/** 429, or 503: keep the change pending and come back later. */
export function isThrottle(e: unknown): boolean {
  return AppError.is(e) && (e.kind === 'rate_limited' || (e.kind === 'server' && e.status === 503))
}

export interface BackoffOptions {
  baseMs?: number
  capMs?: number
  random?: () => number
}

/** Exponential back-off for the n-th wait (0-based): base·2ⁿ capped, with ±50 % jitter (never above the cap). */
export function backoffMs(n: number, o: BackoffOptions = {}): number {
  const base = o.baseMs ?? 1000
  const cap = o.capMs ?? 5 * 60_000
  const raw = Math.min(cap, base * 2 ** Math.min(30, Math.max(0, n)))
  const jitter = 0.5 + (o.random ?? Math.random)()
  return Math.min(cap, Math.round(raw * jitter))
}

/** The wait after a throttled answer: the larger of Retry-After and the back-off. */
export function throttleWaitMs(e: unknown, n: number, o: BackoffOptions = {}): number {
  const after = AppError.is(e) && e.retryAfter !== undefined ? e.retryAfter * 1000 : 0
  return Math.max(after, backoffMs(n, o))
}

/** Connectivity failures that are not throttling (the probe's and the replay's "offline"). */
export function isUnreachable(e: unknown): boolean {
  return AppError.is(e) && isConnectivityError(e) && !isThrottle(e)
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** Values that name a reference either by id or as an object with an id compare by id. */
function refId(v: unknown): unknown {
  return typeof v === 'object' && v !== null && 'id' in v ? (v as { id: unknown }).id : v
}

/** True when every field of the patch already has that value on the server (the update landed). */
export function patchApplied(item: Record<string, unknown>, patch: Record<string, unknown>): boolean {
  const keys = Object.keys(patch).filter((k) => patch[k] !== undefined)
  if (keys.length === 0) return false
  return keys.every((k) => {
    const want = patch[k]
    const have = item[k]
    if (Array.isArray(want) && Array.isArray(have)) return same(want.map(refId), have.map(refId))
    return same(want, have)
  })
}

/** How far a server's clock may be behind ours when "created after the attempt" is judged. */
export const CLOCK_SKEW_MS = 2 * 60_000

/**
 * The item a create whose outcome is unknown made, if the server has it: same name (and type,
 * when the create had one), created after the attempt (less the clock skew), not one of the
 * same-named items known before the attempt. Null when none, or when several match (the user decides).
 */
export function findCreated(
  items: readonly Item[],
  known: Record<string, unknown>,
  attempt: { attemptedAt?: string | undefined; knownIds?: readonly string[] | undefined }
): Item | null {
  if (typeof known.name !== 'string') return null
  const since = attempt.attemptedAt ? Date.parse(attempt.attemptedAt) - CLOCK_SKEW_MS : NaN
  const before = new Set(attempt.knownIds ?? [])
  const hits = items.filter((i) => {
    if (before.has(i.id) || i.id.startsWith('local-')) return false
    if (i.name !== known.name) return false
    if (typeof known.type === 'string' && i.type !== undefined && i.type !== known.type) return false
    const created = typeof i.createdAt === 'string' ? Date.parse(i.createdAt) : NaN
    return Number.isFinite(since) && Number.isFinite(created) && created >= since
  })
  return hits.length === 1 ? (hits[0] as Item) : null
}

/** The error an outcome-unknown write is kept with: what happened, and that it may be stored. */
export function uncertainError<E extends { message: string }>(e: E): E {
  return { ...e, message: `${e.message.replace(/[.\s]+$/, '')}: the change may have reached the server` }
}
