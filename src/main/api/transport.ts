/**
 * Transport: one request to the service and back, as service-api.md has it (see client.ts for the
 * rules). Knows no resource: a Call names its operation, path and body; the answer is the
 * envelope's `data`, or one AppError (normalize.ts) for anything else.
 */
import { AppError } from '../../shared/errors'
import {
  isExtraOperation,
  memoryAuthHeaderStore,
  notOffered,
  type AuthHeaderName,
  type AuthHeaderStore,
  type CapabilityStore,
  type ExtraOperation
} from './capabilities'
import { createAgents, send, TransportError, type RawResponse } from './http'
import { failureFromResponse, isRecord, isRouteMiss, parseBody } from './normalize'

export interface ApiClientOptions {
  /** Profile base URL WITHOUT /api/v1 (a trailing slash or a typed /api/v1 is stripped). */
  baseUrl: string
  getToken: () => string | null
  capabilities: CapabilityStore
  /** Deadline for a whole exchange. Default 15000. */
  timeoutMs?: number
  /** Larger answers fail with 'too_large'. Default 64 MiB. */
  maxResponseBytes?: number
  /** Retries of idempotent GETs on network failures (not timeouts). Default 2. */
  getRetries?: number
  /** Called when the server rejected the credential (not for sign-in / sign-up). */
  onUnauthorized?: (err: AppError) => void
  /**
   * The origin (scheme://host:port) the token was issued by. The token is never attached to a
   * request for another origin. Default: the origin of `baseUrl`.
   */
  tokenOrigin?: () => string | null
  /** The header spelling this server was found to need, remembered per profile. Default: memory. */
  authHeader?: AuthHeaderStore
}

/** `https://h/x/` → `https://h/x`; `https://h/api/v1/` → `https://h`. Throws AppError 'validation'. */
export function normalizeBaseUrl(input: string): string {
  let s = input.trim()
  let url: URL
  try {
    url = new URL(s)
  } catch {
    throw new AppError({
      kind: 'validation',
      message: 'Enter the server address, e.g. https://ams.example.com',
      fields: [{ field: 'baseUrl', message: 'Not a valid address' }]
    })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError({
      kind: 'validation',
      message: 'The server address must start with http:// or https://',
      fields: [{ field: 'baseUrl', message: 'Use http or https' }]
    })
  }
  url.search = ''
  url.hash = ''
  s = url.toString().replace(/\/+$/, '')
  s = s.replace(/\/api\/v1$/i, '').replace(/\/+$/, '')
  return s
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'

export interface Call {
  /** Operation name in IPC-channel style ('agents.get'); extras are looked up by it. */
  op: string
  method: Method
  path: string
  query?: Record<string, string>
  body?: unknown
  auth: boolean
  scope: 'collection' | 'item'
  /** Singular noun for messages ("agent"). */
  what: string
}

const RETRYABLE_NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ETIMEDOUT'
])

const NETWORK_DETAILS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'unknown host name',
  EAI_AGAIN: 'name lookup failed',
  ECONNRESET: 'connection closed by the server',
  EPIPE: 'connection closed by the server',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out'
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

export interface Transport {
  readonly baseUrl: string
  /** Performs a call; returns the envelope's `data` (undefined becomes null). Throws AppError. */
  request(call: Call): Promise<unknown>
}

export function createTransport(opts: ApiClientOptions): Transport {
  const baseUrl = normalizeBaseUrl(opts.baseUrl)
  const host = new URL(baseUrl).host
  const origin = new URL(baseUrl).origin
  const authHeader = opts.authHeader ?? memoryAuthHeaderStore()
  const timeoutMs = opts.timeoutMs ?? 15_000
  const maxResponseBytes = opts.maxResponseBytes ?? 64 * 1024 * 1024
  const getRetries = Math.max(0, opts.getRetries ?? 2)
  const caps = opts.capabilities
  const agents = createAgents()

  function transportToAppError(err: unknown): AppError {
    if (err instanceof TransportError) {
      if (err.failure === 'timeout') {
        const limit = timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`
        return new AppError({ kind: 'timeout', message: `${host} did not answer within ${limit}` })
      }
      if (err.failure === 'too_large') {
        const mb = maxResponseBytes / (1024 * 1024)
        const size =
          mb >= 1 ? `${Math.round(mb)} MiB` : `${Math.max(1, Math.round(maxResponseBytes / 1024))} KiB`
        return new AppError({ kind: 'too_large', message: `The server's answer is too large (over ${size})` })
      }
      if (/^(CERT_|ERR_TLS|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_SSL)/.test(err.code)) {
        return new AppError({
          kind: 'network',
          message: `Cannot reach ${host} securely (${err.code})`,
          code: err.code
        })
      }
      const detail = NETWORK_DETAILS[err.code]
      return new AppError({
        kind: 'network',
        message: detail ? `Cannot reach ${host} (${detail})` : `Cannot reach ${host}`,
        code: err.code
      })
    }
    if (err instanceof AppError) return err
    const message = err instanceof Error ? err.message : String(err)
    return new AppError({ kind: 'internal', message: `The request could not be sent: ${message}` })
  }

  async function exchange(call: Call, headers: Record<string, string>, body: string | undefined) {
    const url = new URL(`${baseUrl}/api/v1${call.path}`)
    for (const [k, v] of Object.entries(call.query ?? {})) url.searchParams.set(k, v)
    const idempotent = call.method === 'GET'
    let attempt = 0
    for (;;) {
      try {
        const sendOpts: Parameters<typeof send>[0] = {
          method: call.method,
          url,
          headers,
          timeoutMs,
          maxResponseBytes,
          agents
        }
        if (body !== undefined) sendOpts.body = body
        return await send(sendOpts)
      } catch (err) {
        const retry =
          err instanceof TransportError &&
          err.failure === 'network' &&
          ((idempotent && attempt < getRetries && RETRYABLE_NETWORK_CODES.has(err.code)) ||
            (!idempotent &&
              attempt === 0 &&
              err.reusedSocket &&
              !err.responseStarted &&
              err.code === 'ECONNRESET'))
        if (!retry) throw transportToAppError(err)
        attempt += 1
        if (idempotent) await sleep(150 * attempt)
      }
    }
  }

  /** The token for an authenticated call, refused when it was issued by another origin. */
  function tokenFor(): string {
    const token = opts.getToken()
    if (!token) throw new AppError({ kind: 'signed_out', message: 'You are not signed in' })
    const issuer = opts.tokenOrigin ? opts.tokenOrigin() : origin
    if (issuer !== origin) {
      throw new AppError({
        kind: 'signed_out',
        message: `Your session belongs to another server address: sign in to ${host} to continue`,
        code: 'token_origin'
      })
    }
    if (!/^[\x21-\x7e]+$/.test(token)) {
      const err = new AppError({
        kind: 'unauthorized',
        message: 'The stored credential is not valid: sign in again'
      })
      opts.onUnauthorized?.(err)
      throw err
    }
    return token
  }

  /** Performs a call; returns the envelope's `data` (undefined becomes null). Throws AppError. */
  async function request(call: Call): Promise<unknown> {
    const extra = isExtraOperation(call.op) ? call.op : null
    if (extra && caps.get(extra) === 'not_offered') throw notOffered(extra)
    if (!call.auth) return attempt(call, extra, null)
    const token = tokenFor()
    const spelling = authHeader.get()
    try {
      return await attempt(call, extra, { name: spelling, token })
    } catch (e) {
      if (!(AppError.is(e) && e.kind === 'unauthorized')) throw e
      // Refused as not authenticated under `Authorization`: once, the document's spelling alone.
      if (spelling === 'Authorization') {
        let retried: unknown
        try {
          retried = await attempt(call, extra, { name: 'Autorization', token })
        } catch (e2) {
          if (AppError.is(e2) && e2.kind !== 'unauthorized') throw e2
          opts.onUnauthorized?.(e)
          throw e
        }
        authHeader.set('Autorization')
        return retried
      }
      opts.onUnauthorized?.(e)
      throw e
    }
  }

  /** One exchange with the credential under one header name; unauthorized is thrown, not reported. */
  async function attempt(
    call: Call,
    extra: ExtraOperation | null,
    auth: { name: AuthHeaderName; token: string } | null
  ): Promise<unknown> {
    const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': 'AgentDesk' }
    if (auth) headers[auth.name] = `Bearer ${auth.token}`
    let body: string | undefined
    if (call.body !== undefined) {
      body = JSON.stringify(call.body)
      headers['Content-Type'] = 'application/json'
    }

    const raw: RawResponse = await exchange(call, headers, body)
    const parsed = parseBody(raw)
    const ok2xx = raw.status >= 200 && raw.status < 300

    if (ok2xx && parsed.kind === 'json' && isRecord(parsed.value) && parsed.value.success === true) {
      if (extra && caps.get(extra) !== 'offered') caps.set(extra, 'offered')
      return parsed.value.data ?? null
    }
    // A bodiless 204 to a delete is a success on any sensible server.
    if (raw.status === 204 && call.method === 'DELETE' && parsed.kind === 'empty') {
      if (extra && caps.get(extra) !== 'offered') caps.set(extra, 'offered')
      return null
    }

    if (extra && !ok2xx && isRouteMiss(raw, parsed, call.scope)) {
      caps.set(extra, 'not_offered')
      throw notOffered(extra, raw.status)
    }
    throw failureFromResponse(raw, parsed, {
      host,
      what: call.what,
      signIn: call.op === 'session.signIn'
    })
  }

  return { baseUrl, request }
}
