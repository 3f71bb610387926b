/**
 * Turns whatever a server answered into either the envelope's `data` or ONE AppError with a
 * human message. Handles our envelope, FastAPI's `{"detail": ...}` shapes, HTML pages from a
 * proxy, empty and non-JSON bodies, and 2xx answers that are not a success envelope.
 * Raw JSON or HTML never ends up in a message.
 */
import { STATUS_CODES } from 'node:http'
import { AppError, type AppErrorData, type AppErrorKind } from '../../shared/errors'
import type { FieldIssue } from '../../shared/common'
import { maskSecrets, maskText } from '../mask'
import type { RawResponse } from './http'

export type ParsedBody =
  | { kind: 'empty' }
  /** `text`: the JSON as it came (mask.ts `jsonMayHold`). */
  | { kind: 'json'; value: unknown; text: string }
  | { kind: 'html' }
  | { kind: 'text'; text: string }

export function parseBody(raw: RawResponse): ParsedBody {
  const text = raw.body.toString('utf8').replace(/^\uFEFF/, '')
  const trimmed = text.trim()
  if (trimmed === '') return { kind: 'empty' }
  const type = String(raw.headers['content-type'] ?? '').toLowerCase()
  if (type.includes('html') || /^<(!doctype|html|head|body|\?xml|[a-z])/i.test(trimmed))
    return { kind: 'html' }
  try {
    return { kind: 'json', value: JSON.parse(trimmed) as unknown, text: trimmed }
  } catch {
    return { kind: 'text', text: trimmed }
  }
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** How the client names things in messages. */
export interface FailureContext {
  host: string
  /** "agent", "document", …: used in "The agent was not found". */
  what: string
  /** True for the sign-in call: a rejected credential there means a wrong e-mail or password. */
  signIn?: boolean
  /**
   * What the request carried that the server must not get to show back (the session token): a
   * server or proxy that echoes request headers in its error text has them masked out of the
   * status text, the headers and the body before any message is built from them.
   */
  secrets?: readonly string[]
}

/** The answer with every secret masked out of its status text, headers and body. */
export function scrubResponse(
  raw: RawResponse,
  body: ParsedBody,
  secrets: readonly string[] | undefined
): { raw: RawResponse; body: ParsedBody } {
  if (!secrets || secrets.length === 0) return { raw, body }
  const headers = maskSecrets(raw.headers, secrets) as RawResponse['headers']
  const scrubbed: RawResponse = { ...raw, statusText: maskText(raw.statusText, secrets), headers }
  if (body.kind === 'json')
    return {
      raw: scrubbed,
      body: { kind: 'json', value: maskSecrets(body.value, secrets), text: maskText(body.text, secrets) }
    }
  if (body.kind === 'text')
    return { raw: scrubbed, body: { kind: 'text', text: maskText(body.text, secrets) } }
  return { raw: scrubbed, body }
}

const CODE_KINDS: Record<string, AppErrorKind> = {
  bad_request: 'validation',
  validation_failed: 'validation',
  validation: 'validation',
  unauthorized: 'unauthorized',
  unauthenticated: 'unauthorized',
  forbidden: 'forbidden',
  not_found: 'not_found',
  method_not_allowed: 'not_offered',
  conflict: 'conflict',
  payload_too_large: 'too_large',
  too_large: 'too_large',
  unsupported_media_type: 'protocol',
  rate_limited: 'rate_limited',
  internal: 'server'
}

export function kindForStatus(status: number): AppErrorKind {
  if (status === 400 || status === 422) return 'validation'
  if (status === 401) return 'unauthorized'
  if (status === 403) return 'forbidden'
  if (status === 404 || status === 410) return 'not_found'
  if (status === 405 || status === 501) return 'not_offered'
  if (status === 408) return 'timeout'
  if (status === 409) return 'conflict'
  if (status === 413) return 'too_large'
  if (status === 429) return 'rate_limited'
  if (status >= 500) return 'server'
  return 'protocol'
}

/** FastAPI's (and the origin's) words for "your credential was rejected", sent with 401 or 403. */
const REJECTED_CREDENTIAL_RE =
  /not authenticated|invalid token|expired token|token (is )?(invalid|expired)|could not validate credentials|invalid authentication|credentials were not provided|unauthori[sz]ed/i

/**
 * `Retry-After` as whole seconds from now: delay-seconds or an HTTP date (RFC 9110 §10.2.3).
 * Undefined when absent or unreadable; a date in the past is 0.
 */
export function retryAfterSeconds(
  header: string | string[] | undefined,
  nowMs = Date.now()
): number | undefined {
  const v = (Array.isArray(header) ? header[0] : header)?.trim()
  if (!v) return undefined
  if (/^\d+$/.test(v)) return Number(v)
  if (/^\d+\.\d+$/.test(v)) return Math.ceil(Number(v))
  const at = Date.parse(v)
  if (!Number.isFinite(at) || !/[a-z]/i.test(v)) return undefined
  return Math.max(0, Math.ceil((at - nowMs) / 1000))
}

export function statusLabel(raw: Pick<RawResponse, 'status' | 'statusText'>): string {
  const text = raw.statusText || STATUS_CODES[raw.status] || ''
  return text ? `${raw.status} ${text}` : String(raw.status)
}

function defaultMessage(kind: AppErrorKind, raw: RawResponse, ctx: FailureContext): string {
  switch (kind) {
    case 'validation':
      return 'The server refused the request: check what you entered'
    case 'unauthorized':
      return ctx.signIn ? 'Wrong e-mail or password' : 'The server ended your session: sign in again'
    case 'forbidden':
      return 'You are not allowed to do this on this server'
    case 'not_found':
      return `The ${ctx.what} was not found`
    case 'not_offered':
      return `This server does not allow this operation (${statusLabel(raw)})`
    case 'timeout':
      return `${ctx.host} took too long to answer`
    case 'conflict':
      return 'This conflicts with data already on the server'
    case 'too_large':
      return 'The request is too large for the server'
    case 'rate_limited': {
      const after = retryAfterSeconds(raw.headers['retry-after'])
      return after !== undefined && after > 0
        ? `Too many requests: try again in ${after} s`
        : 'Too many requests: wait a moment and try again'
    }
    case 'server':
      return serverFailureMessage(raw)
    default:
      return `The server refused the request (${statusLabel(raw)})`
  }
}

/** A gateway (a proxy in front of the service) answers 502, 503 or 504; 500 is the service's own. */
const isGatewayStatus = (status: number) => status >= 502 && status <= 504

/** A 5xx in words: a 500 is the server's internal error, not a gateway's. */
function serverFailureMessage(raw: RawResponse): string {
  if (isGatewayStatus(raw.status))
    return `The server's gateway could not reach the service (${statusLabel(raw)})`
  if (raw.status === 500) return `The server had an internal error (${statusLabel(raw)})`
  return `The server failed to handle the request (${statusLabel(raw)})`
}

/** A server-supplied sentence we are willing to show: a short single-line string, not markup or JSON. */
function humanText(v: unknown): string | null {
  if (typeof v !== 'string') return null
  const s = v.replace(/\s+/g, ' ').trim()
  if (!s || /^[[{<]/.test(s)) return null
  return s.length > 300 ? `${s.slice(0, 297)}…` : s
}

function isStatusText(s: string, status: number): boolean {
  const std = STATUS_CODES[status]
  return !!std && s.toLowerCase() === std.toLowerCase()
}

function fieldsFromDetails(details: unknown): FieldIssue[] | undefined {
  if (!Array.isArray(details)) return undefined
  const out: FieldIssue[] = []
  for (const d of details) {
    if (!isRecord(d)) continue
    const field = typeof d.field === 'string' && d.field ? d.field : '(body)'
    const message = humanText(d.message) ?? 'Invalid value'
    out.push({ field, message })
  }
  return out.length ? out : undefined
}

/** FastAPI `{"detail": [{loc, msg, type}]}` → fields, `loc` without its leading "body". */
function fieldsFromFastApi(detail: unknown[]): FieldIssue[] {
  const out: FieldIssue[] = []
  for (const d of detail) {
    if (!isRecord(d)) continue
    const loc = Array.isArray(d.loc) ? d.loc.map(String) : []
    if (loc[0] === 'body' || loc[0] === 'query' || loc[0] === 'path') loc.shift()
    const field = loc.join('.') || '(body)'
    out.push({ field, message: humanText(d.msg) ?? 'Invalid value' })
  }
  return out
}

function describeFields(fields: FieldIssue[]): string {
  if (fields.length === 1) {
    const f = fields[0] as FieldIssue
    return f.field === '(body)' ? `The server refused the request: ${f.message}` : `${f.field}: ${f.message}`
  }
  const shown = fields
    .slice(0, 3)
    .map((f) => `${f.field} (${f.message})`)
    .join('; ')
  return `${fields.length} fields need attention: ${shown}${fields.length > 3 ? '; …' : ''}`
}

function make(
  kind: AppErrorKind,
  message: string,
  raw: RawResponse,
  extra?: { code?: string; fields?: FieldIssue[] }
) {
  const data: ConstructorParameters<typeof AppError>[0] = { kind, message, status: raw.status }
  if (extra?.code) data.code = extra.code
  if (extra?.fields?.length) data.fields = extra.fields
  if (raw.status === 429 || raw.status === 503) {
    const after = retryAfterSeconds(raw.headers['retry-after'])
    if (after !== undefined) data.retryAfter = after
    // The wait the server asked for is always said, also after a server's own sentence.
    if (after !== undefined && after > 0 && !/try again in \d+ s/.test(message)) {
      data.message = `${message.replace(/[.\s]+$/, '')}: try again in ${after} s`
    }
  }
  return new AppError(data)
}

/** A rejected credential (401 anything; 403 with the origin's words; our envelope code). */
function adjustForCredential(kind: AppErrorKind, raw: RawResponse, serverText: string | null, code?: string) {
  if (code === 'unauthorized' || code === 'unauthenticated') return 'unauthorized'
  if (raw.status === 403 && serverText && REJECTED_CREDENTIAL_RE.test(serverText)) return 'unauthorized'
  return kind
}

function credentialMessage(ctx: FailureContext, serverText: string | null): string {
  if (ctx.signIn) return 'Wrong e-mail or password'
  return serverText && !/^unauthori[sz]ed$/i.test(serverText)
    ? `The server ended your session (${serverText.replace(/\.$/, '')}): sign in again`
    : 'The server ended your session: sign in again'
}

/** Builds the AppError for a failed answer (non-2xx, or 2xx without a success envelope). */
export function failureFromResponse(raw: RawResponse, body: ParsedBody, ctx: FailureContext): AppError {
  const secrets = ctx.secrets ?? []
  const scrubbed = scrubResponse(raw, body, secrets)
  const err = buildFailure(scrubbed.raw, scrubbed.body, ctx)
  // Pieces put together (a FastAPI `loc` joined with dots) must not spell the secret either.
  const data = err.toData()
  const masked = maskSecrets(data, secrets)
  return masked === data ? err : new AppError(masked as AppErrorData)
}

function buildFailure(raw: RawResponse, body: ParsedBody, ctx: FailureContext): AppError {
  const ok = raw.status >= 200 && raw.status < 300

  if (body.kind === 'html') {
    if (ok)
      return make(
        'protocol',
        'The server answered with a web page instead of data: check the server address',
        raw
      )
    const kind = raw.status >= 500 ? 'server' : kindForStatus(raw.status)
    if (kind === 'unauthorized') return make(kind, credentialMessage(ctx, null), raw)
    const gateway = isGatewayStatus(raw.status) ? "The server's gateway" : 'The server'
    return make(kind, `${gateway} answered with an error page (${statusLabel(raw)})`, raw)
  }

  if (body.kind === 'empty' || body.kind === 'text') {
    if (ok) {
      return make(
        'protocol',
        body.kind === 'empty'
          ? 'The server sent an empty answer'
          : 'The server answered in a format the app does not understand (not JSON)',
        raw
      )
    }
    const kind = kindForStatus(raw.status)
    return make(kind, defaultMessage(kind, raw, ctx), raw)
  }

  const value = body.value
  if (!isRecord(value)) {
    if (ok) return make('protocol', 'The server answered in an unexpected format (no success envelope)', raw)
    const kind = kindForStatus(raw.status)
    return make(kind, defaultMessage(kind, raw, ctx), raw)
  }

  // Our envelope: {success:false, error:{code, message, details}} (also accepted on a 2xx).
  if (isRecord(value.error)) {
    const code = typeof value.error.code === 'string' ? value.error.code : undefined
    const serverText = humanText(value.error.message)
    const fields = fieldsFromDetails(value.error.details)
    let kind: AppErrorKind = (code && CODE_KINDS[code]) || (ok ? 'server' : kindForStatus(raw.status))
    kind = adjustForCredential(kind, raw, serverText, code)
    let message = serverText ?? (fields ? describeFields(fields) : defaultMessage(kind, raw, ctx))
    if (kind === 'unauthorized') message = credentialMessage(ctx, serverText)
    const extra: { code?: string; fields?: FieldIssue[] } = {}
    if (code) extra.code = code
    if (fields) extra.fields = fields
    return make(kind, message, raw, extra)
  }

  // FastAPI: {"detail": "text"} or {"detail": [{loc, msg, type}]}.
  if ('detail' in value) {
    const detail = value.detail
    if (Array.isArray(detail)) {
      const fields = fieldsFromFastApi(detail)
      const kind: AppErrorKind =
        ok || raw.status === 400 || raw.status === 422 ? 'validation' : kindForStatus(raw.status)
      const message = fields.length ? describeFields(fields) : defaultMessage(kind, raw, ctx)
      return make(kind, message, raw, fields.length ? { fields } : undefined)
    }
    const serverText = humanText(detail)
    let kind = ok ? 'server' : kindForStatus(raw.status)
    kind = adjustForCredential(kind, raw, serverText)
    if (kind === 'unauthorized') return make(kind, credentialMessage(ctx, serverText), raw)
    const message =
      serverText && !isStatusText(serverText, raw.status) ? serverText : defaultMessage(kind, raw, ctx)
    return make(kind, message, raw)
  }

  // 2xx envelope with success:false and no error body.
  if (value.success === false) {
    const serverText = humanText(value.message) ?? humanText(value.data)
    const kind = ok ? 'server' : kindForStatus(raw.status)
    return make(kind, serverText ?? 'The server reported that the request failed', raw)
  }

  if (ok) return make('protocol', 'The server answered in an unexpected format (no success envelope)', raw)

  // Other JSON error shapes: {"message": "..."} or {"error": "..."}.
  const serverText = humanText(value.message) ?? humanText(value.error)
  let kind = kindForStatus(raw.status)
  kind = adjustForCredential(kind, raw, serverText)
  if (kind === 'unauthorized') return make(kind, credentialMessage(ctx, serverText), raw)
  return make(
    kind,
    serverText && !isStatusText(serverText, raw.status) ? serverText : defaultMessage(kind, raw, ctx),
    raw
  )
}

/**
 * Route-miss test for capability detection: does this 404/405 mean "the server has no such
 * operation" rather than "no such item"? Collection operations (list/create): any 404 or 405.
 * Item operations: a 405, or a 404 that is not our envelope (FastAPI's default
 * `{"detail":"Not Found"}`, an HTML or empty page), or our envelope's 404 whose message says the
 * route does not exist. Our envelope's ordinary 404 means the item is missing.
 */
export function isRouteMiss(raw: RawResponse, body: ParsedBody, scope: 'collection' | 'item'): boolean {
  if (raw.status === 405 || raw.status === 501) return true
  if (raw.status !== 404) return false
  if (scope === 'collection') return true
  if (body.kind !== 'json') return true
  const v = body.value
  if (!isRecord(v)) return true
  if (isRecord(v.error)) {
    const message = typeof v.error.message === 'string' ? v.error.message : ''
    return /\broute\b|no such (operation|endpoint|path)|unknown (operation|endpoint|path)|does not exist on this server|not offered/i.test(
      message
    )
  }
  if (typeof v.detail === 'string') return v.detail.trim().toLowerCase() === 'not found'
  return v.success === undefined
}
