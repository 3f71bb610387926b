/**
 * Whether the current server answers. Offline starts a cheap periodic probe; the first success
 * flips back online and tells the core (which replays the outbox).
 */
import type { Connectivity } from '../shared/ipc'
import { AppError, isConnectivityError } from '../shared/errors'
import { backoffMs, isThrottle, neverSent } from './offline/writeRules'

export interface ConnectivityOptions {
  /**
   * First probe period while offline; it doubles (with jitter) after each probe that failed with
   * a timeout, a reset or a 5xx, up to maxIntervalMs, and is never shorter than a 503's Retry-After.
   */
  intervalMs: number
  /** Default max(intervalMs, 60000). */
  maxIntervalMs?: number
  random?: () => number
  onChange: (state: Connectivity) => void
  onOnline: () => void
  /** A request pending longer than this marks the connection slow ("not answering"). Default 5000. */
  slowAfterMs?: number
}

export class ConnectivityMonitor {
  private state: Connectivity = { online: true, lastSyncedAt: null }
  private timer: ReturnType<typeof setTimeout> | null = null
  /** The probe under way, if any: whoever asks meanwhile waits for it instead of starting another. */
  private probing: Promise<void> | null = null
  private stopped = false
  /** Failed probes in a row, and the wait a 429/503 asked for (ms). */
  private failures = 0
  private serverWaitMs = 0
  /** The current session's probe: a cheap request; resolves when the server answered. */
  private probe: () => Promise<void> = async () => undefined
  /** Requests under way (id → start time) and whether one has waited past slowAfterMs. */
  private readonly pending = new Map<number, number>()
  private nextRequest = 0
  private slow = false
  private slowTimer: ReturnType<typeof setTimeout> | null = null

  constructor(private readonly opts: ConnectivityOptions) {}

  get(): Connectivity {
    const out: Connectivity = { online: this.state.online, lastSyncedAt: this.state.lastSyncedAt }
    if (this.state.lastError !== undefined) out.lastError = this.state.lastError
    if (this.slow) out.slow = true
    return out
  }

  /** A new session: online until proven otherwise, with its last sync time and its probe. */
  reset(lastSyncedAt: string | null, probe: () => Promise<void>): void {
    this.cancel()
    this.probe = probe
    this.stopped = false
    this.state = { online: true, lastSyncedAt }
    this.pending.clear()
    this.slow = false
    this.checkSlow()
  }

  /** The server answered (a read or write succeeded). */
  markOnline(syncedAt?: string): void {
    const wasOffline = !this.state.online
    const changed = wasOffline || (syncedAt !== undefined && syncedAt !== this.state.lastSyncedAt)
    this.state = { online: true, lastSyncedAt: syncedAt ?? this.state.lastSyncedAt }
    this.failures = 0
    this.serverWaitMs = 0
    this.cancel()
    if (changed) this.opts.onChange(this.get())
    if (wasOffline) this.opts.onOnline()
  }

  /** The server could not be reached. */
  markOffline(message: string): void {
    const changed = this.state.online || this.state.lastError !== message
    this.state = { online: false, lastSyncedAt: this.state.lastSyncedAt, lastError: message }
    if (changed) this.opts.onChange(this.get())
    this.schedule()
  }

  /**
   * Probes now (the user asked to reconnect). Returns the state afterwards. A periodic probe under
   * way may have been sent before the server came back: it is waited for, and unless it reached
   * the server another is sent (answering with the state it left would say "offline" again).
   */
  async probeNow(): Promise<Connectivity> {
    if (this.probing) {
      await this.probing
      if (this.state.online) return this.get()
    }
    await this.runProbe()
    return this.get()
  }

  /** The next probe's delay: back-off over failed probes, never before what the server asked. */
  nextDelayMs(): number {
    const cap = this.opts.maxIntervalMs ?? Math.max(this.opts.intervalMs, 60_000)
    const o = {
      baseMs: this.opts.intervalMs,
      capMs: cap,
      ...(this.opts.random ? { random: this.opts.random } : {})
    }
    return Math.max(this.serverWaitMs, backoffMs(Math.max(0, this.failures - 1), o))
  }

  private schedule(): void {
    if (this.timer || this.stopped) return
    this.timer = setTimeout(() => {
      this.timer = null
      void this.runProbe().then(() => {
        if (!this.state.online) this.schedule()
      })
    }, this.nextDelayMs())
    this.timer.unref?.()
  }

  private runProbe(): Promise<void> {
    this.probing ??= this.probeOnce().finally(() => {
      this.probing = null
    })
    return this.probing
  }

  private async probeOnce(): Promise<void> {
    try {
      await this.probe()
      this.markOnline()
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e)
      if (this.isConnectivityFailure(e)) {
        // Back-off when something answered badly or not in time (an overloaded server or proxy);
        // a refused connection or an unknown host costs nobody anything: probed at the base rate.
        if (!neverSent(e)) this.failures += 1
        const after = AppError.is(e) && isThrottle(e) ? (e.retryAfter ?? 0) * 1000 : 0
        this.serverWaitMs = after
        // The message stays the same from probe to probe (no event per probe); a 429/503's own
        // message already says "try again in N s" (normalize.ts).
        this.markOffline(message)
      }
      // Any other answer (even an error) means the server is reachable.
      else this.markOnline()
    }
  }

  private isConnectivityFailure(e: unknown): boolean {
    return AppError.is(e) ? isConnectivityError(e) : true
  }

  private cancel(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }

  /** Stops probing for good (sign-out, dispose). */
  stop(): void {
    this.stopped = true
    this.cancel()
    this.pending.clear()
    if (this.slowTimer) clearTimeout(this.slowTimer)
    this.slowTimer = null
  }

  /**
   * A request to the server started; call the returned function when it ends (answered, failed
   * or cancelled). While one has waited longer than slowAfterMs the state says `slow`.
   */
  requestStarted(): () => void {
    const id = ++this.nextRequest
    this.pending.set(id, Date.now())
    this.checkSlow()
    return () => {
      if (this.pending.delete(id)) this.checkSlow()
    }
  }

  private checkSlow(): void {
    if (this.slowTimer) clearTimeout(this.slowTimer)
    this.slowTimer = null
    const after = this.opts.slowAfterMs ?? 5000
    const now = Date.now()
    let oldest = Infinity
    for (const t of this.pending.values()) oldest = Math.min(oldest, t)
    const slow = oldest !== Infinity && now - oldest >= after
    if (slow !== this.slow) {
      this.slow = slow
      this.opts.onChange(this.get())
    }
    if (!slow && oldest !== Infinity && !this.stopped) {
      this.slowTimer = setTimeout(() => this.checkSlow(), oldest + after - now)
      this.slowTimer.unref?.()
    }
  }
}
