/**
 * Cancellable work in the renderer. `withCallScope(scope, fn)` runs `fn`; every call to main that
 * `fn` makes through `desk()` before its first pause (the store helpers call `desk()` at once) is
 * given an id and remembered in the scope, and `scope.cancel()` sends `calls.cancel` for each of
 * them: main aborts their HTTP requests and they answer kind 'cancelled' at once.
 */
import type { CallOptions, DeskApi } from '../../../shared/ipc'

let seq = 0
const newId = () =>
  `r${Date.now().toString(36)}${(seq++).toString(36)}${Math.random().toString(36).slice(2, 8)}`

export class CallScope {
  readonly ids: string[] = []
  cancelled = false

  /** A new id, remembered here. */
  take(): string {
    const id = newId()
    this.ids.push(id)
    return id
  }

  /** Cancels every call made in this scope (those already finished are left alone by main). */
  async cancel(api: DeskApi): Promise<void> {
    this.cancelled = true
    await Promise.all(
      this.ids.map((callId) => api.calls.cancel({ callId }).catch(() => ({ cancelled: false })))
    )
  }
}

let current: CallScope | null = null

/** Runs `fn` with `scope` as the scope of the calls it starts (see the module's comment). */
export function withCallScope<T>(scope: CallScope, fn: () => Promise<T>): Promise<T> {
  const previous = current
  current = scope
  try {
    return fn()
  } finally {
    current = previous
  }
}

type AnyFn = (input?: unknown, call?: CallOptions) => Promise<unknown>

/** `api` as is outside a scope; inside one, a copy whose calls carry an id of the scope. */
export function scopedApi(api: DeskApi): DeskApi {
  const scope = current
  if (!scope) return api
  const out: Record<string, unknown> = {}
  for (const [ns, group] of Object.entries(api as unknown as Record<string, unknown>)) {
    if (ns === 'calls' || typeof group !== 'object' || group === null) {
      out[ns] = group
      continue
    }
    const wrapped: Record<string, AnyFn> = {}
    for (const [name, fn] of Object.entries(group as Record<string, unknown>)) {
      if (typeof fn !== 'function') continue
      const call = fn as AnyFn
      wrapped[name] = (input, opts) => call(input, opts ?? { id: scope.take() })
    }
    out[ns] = wrapped
  }
  for (const key of ['on', 'early'] as const) {
    const fn = (api as unknown as Record<string, unknown>)[key]
    if (typeof fn === 'function') out[key] = fn
  }
  return out as unknown as DeskApi
}
