/**
 * Back-off on failed sign-ins, per account (e-mail) and per client address.
 *
 * Each key may fail `free` times; every further failure locks the key for
 * `baseMs · 2^(failures − free − 1)`, at most `maxMs`. While locked, a sign-in is answered 429 with
 * `Retry-After` before any password is checked (so guessing also burns no CPU). A successful
 * sign-in clears the account's count; the address's count is not cleared by a success (an
 * attacker with one valid account could otherwise reset it between guesses at others) and is
 * forgotten `forgetMs` after its last failure.
 */
import { HttpError } from './http'

export interface ThrottleOptions {
  /** Failures allowed per account before back-off; default 5. */
  accountFree?: number
  /** Failures allowed per address before back-off; default 20 (many users may share one). */
  addressFree?: number
  /** First lock; default 1000 ms, doubling per further failure. */
  baseMs?: number
  /** Longest lock; default 15 minutes. */
  maxMs?: number
  /** A key with no failure for this long is forgotten; default 1 hour. */
  forgetMs?: number
  /** Clock (tests). */
  now?: () => number
}

interface Entry {
  failures: number
  lockedUntil: number
  last: number
}

const MAX_KEYS = 10_000

export class SignInThrottle {
  private readonly keys = new Map<string, Entry>()
  private readonly o: Required<ThrottleOptions>

  constructor(opts: ThrottleOptions = {}) {
    this.o = {
      accountFree: opts.accountFree ?? 5,
      addressFree: opts.addressFree ?? 20,
      baseMs: opts.baseMs ?? 1000,
      maxMs: opts.maxMs ?? 15 * 60 * 1000,
      forgetMs: opts.forgetMs ?? 60 * 60 * 1000,
      now: opts.now ?? Date.now
    }
  }

  private entry(key: string, now: number): Entry | undefined {
    const e = this.keys.get(key)
    if (e && now - e.last > this.o.forgetMs && now >= e.lockedUntil) {
      this.keys.delete(key)
      return undefined
    }
    return e
  }

  /** Throws 429 (with Retry-After in seconds) when the account or the address is locked. */
  check(account: string, address: string) {
    const now = this.o.now()
    let until = 0
    for (const key of [`a:${account.toLowerCase()}`, `ip:${address}`]) {
      const e = this.entry(key, now)
      if (e && e.lockedUntil > until) until = e.lockedUntil
    }
    if (until > now) {
      const seconds = Math.max(1, Math.ceil((until - now) / 1000))
      throw new HttpError(429, 'rate_limited', `Too many failed sign-ins: try again in ${seconds} s`, [], {
        'retry-after': String(seconds)
      })
    }
  }

  failed(account: string, address: string) {
    const now = this.o.now()
    this.bump(`a:${account.toLowerCase()}`, this.o.accountFree, now)
    this.bump(`ip:${address}`, this.o.addressFree, now)
  }

  succeeded(account: string) {
    this.keys.delete(`a:${account.toLowerCase()}`)
  }

  private bump(key: string, free: number, now: number) {
    const e = this.entry(key, now) ?? { failures: 0, lockedUntil: 0, last: now }
    e.failures += 1
    e.last = now
    const over = e.failures - free
    if (over > 0) e.lockedUntil = now + Math.min(this.o.maxMs, this.o.baseMs * 2 ** Math.min(over - 1, 30))
    this.keys.delete(key) // re-insert: the map's order is least recently failed first
    this.keys.set(key, e)
    while (this.keys.size > MAX_KEYS) {
      const oldest = this.keys.keys().next()
      if (oldest.done) break
      this.keys.delete(oldest.value)
    }
  }
}
