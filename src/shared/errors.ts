import type { FieldIssue } from './common'

/** Every failure the app can show, whatever shape the server answered in. */
export const APP_ERROR_KINDS = [
  'network', // server unreachable (DNS, refused, reset)
  'timeout',
  'unauthorized', // credential missing, invalid or expired: the session ended
  'forbidden',
  'not_found',
  'not_offered', // the server does not have this operation (404/405 on an extra)
  'validation', // the request was refused for its content; `fields` says where
  'conflict',
  'too_large',
  'rate_limited',
  'server', // 5xx
  'protocol', // the answer was not understood (HTML, empty, data: null where an object was due)
  'keychain',
  'signed_out', // no session for this operation
  'cancelled', // the user cancelled the call (calls.cancel) before it finished
  'internal'
] as const
export type AppErrorKind = (typeof APP_ERROR_KINDS)[number]

/** Plain data, so it crosses IPC unchanged. */
export interface AppErrorData {
  kind: AppErrorKind
  message: string
  status?: number
  code?: string
  fields?: FieldIssue[]
  /** Seconds the server asked us to wait (`Retry-After` of a 429/503). */
  retryAfter?: number
}

export class AppError extends Error implements AppErrorData {
  readonly kind: AppErrorKind
  readonly status?: number
  readonly code?: string
  readonly fields?: FieldIssue[]
  readonly retryAfter?: number
  constructor(data: AppErrorData) {
    super(data.message)
    this.name = 'AppError'
    this.kind = data.kind
    if (data.status !== undefined) this.status = data.status
    if (data.code !== undefined) this.code = data.code
    if (data.fields !== undefined) this.fields = data.fields
    if (data.retryAfter !== undefined) this.retryAfter = data.retryAfter
  }
  toData(): AppErrorData {
    return errorData(this)
  }
  static is(e: unknown): e is AppError {
    return e instanceof AppError
  }
}

/** True when the failure means "we could not reach the server", so cached data and the outbox apply. */
export function isConnectivityError(e: { kind: AppErrorKind; status?: number }): boolean {
  return e.kind === 'network' || e.kind === 'timeout' || (e.kind === 'server' && (e.status ?? 0) >= 502)
}

/** Turns a zod-like issue list into field issues (`llm.model`, `tags.0`). */
export function issuesToFields(
  issues: readonly { path: readonly PropertyKey[]; message: string }[]
): FieldIssue[] {
  return issues.map((i) => ({ field: i.path.map(String).join('.') || '(body)', message: i.message }))
}

/** The plain data of an error (kind, message and the optional fields that are set), nothing else. */
export function errorData(e: AppErrorData): AppErrorData {
  const out: AppErrorData = { kind: e.kind, message: e.message }
  if (e.status !== undefined) out.status = e.status
  if (e.code !== undefined) out.code = e.code
  if (e.fields !== undefined) out.fields = e.fields
  if (e.retryAfter !== undefined) out.retryAfter = e.retryAfter
  return out
}
