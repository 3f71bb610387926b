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
import { currentSignal } from '../callContext'
import { createAgents, send, TransportError, type RawResponse } from './http'
import { exchangeFailure, isRetryableNetworkCode } from './exchangeFailure'
import { bytesMayHold, jsonMayHold, markChecked, maskSecrets, maskSecretsInSteps } from '../mask'
import { nextIdempotencyKey } from './idempotency'
import { digestInSteps, digestOf, markAnswer } from './answerDigest'
import { LARGE_ANSWER_BYTES, parseJsonInSteps } from './largeAnswer'
import { GroupStream, type ListGroups } from './listGroups'
import { failureFromResponse, isRecord, isRouteMiss, parseBody } from './normalize'

export interface ApiClientOptions {
  /** Profile base URL WITHOUT /api/v1 (a trailing slash or a typed /api/v1 is stripped). */
  baseUrl: string
  getToken: () => string | null
  capabilities: CapabilityStore
  /** Deadline for a whole exchange of a read (GET). Default 15000. */
  timeoutMs?: number
  /**
   * An answer whose body is still coming at the deadline has another deadline's time, as often as
   * at least this many bytes a second came meanwhile (http.ts). Default 64 KiB/s: a list of 100,000
   * agents (~100 MB) from a server without paging gets the 27 minutes it takes at that rate, and a
   * body that stalls is cut off at the next deadline.
   */
  minBodyBytesPerSecond?: number
  /** Deadline for a whole exchange of a write (POST, PATCH, DELETE): slow stores must not look lost. Default 4 × timeoutMs (60000). */
  writeTimeoutMs?: number
  /**
   * Deadline for the first byte of a read's answer (status line and headers); the body then has
   * until timeoutMs. Default 10 s (never more than timeoutMs). A write's
   * first byte has the whole deadline: the server does its work before it answers, and cutting
   * that short would only leave its outcome unknown.
   */
  firstByteTimeoutMs?: number
  /** Told when a request starts; calls the returned function when it ends (the "not answering" badge). */
  onRequest?: () => () => void
  /** Items per page where the server pages lists (listPaging.ts). Default LIST_PAGE (5,000). */
  listPageSize?: number
  /**
   * Larger answers fail with 'too_large'. Default 256 MiB: a server without paging answers a list of
   * 100,000 agents in one answer of 60–100 MB.
   */
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
  /** Sent as `Idempotency-Key` (writes); by default the key of the write under way (idempotency.ts). */
  idempotencyKey?: string
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

export interface Transport {
  readonly baseUrl: string
  /** What this server was found to offer (remembered per profile). */
  readonly capabilities?: CapabilityStore
  /** Items per page of a paged list. */
  readonly listPageSize?: number
  /**
   * Performs a call; returns the envelope's `data` (undefined becomes null). Throws AppError. A
   * long list's items may go to `groups` a group at a time as they arrive (listGroups.ts), every
   * one of them: it then returns null. An answer `known` takes by its digest is not parsed: it
   * then returns a TakenAnswer.
   */
  request(call: Call, groups?: ListGroups, known?: KnownAnswer<unknown>): Promise<unknown>
}

/**
 * An answer its caller may know by the digest of its body (a page of a list, the same page as the
 * cache stored last): where `expected()` as it begins, a success is read whole once it has come and
 * not in steps as it arrives; where its bytes cannot hold the token, `take` is given their digest
 * (answerDigest.ts), and what it takes is not parsed at all.
 */
export interface KnownAnswer<R> {
  expected(): boolean
  /** What it took (null: not this answer). */
  take(digest: string): Promise<R | null>
}

/** What a request answers when its KnownAnswer took the answer (`value`: what `take` gave). */
export class TakenAnswer<R> {
  constructor(readonly value: R) {}
}

export function createTransport(opts: ApiClientOptions): Transport {
  const baseUrl = normalizeBaseUrl(opts.baseUrl)
  const host = new URL(baseUrl).host
  const origin = new URL(baseUrl).origin
  const authHeader = opts.authHeader ?? memoryAuthHeaderStore()
  const readTimeoutMs = opts.timeoutMs ?? 15_000
  const writeTimeoutMs = opts.writeTimeoutMs ?? readTimeoutMs * 4
  const firstByteTimeoutMs = Math.min(opts.firstByteTimeoutMs ?? 10_000, readTimeoutMs)
  const maxResponseBytes = opts.maxResponseBytes ?? 256 * 1024 * 1024
  const minBodyBytesPerSecond = opts.minBodyBytesPerSecond ?? 64 * 1024
  const getRetries = Math.max(0, opts.getRetries ?? 2)
  const caps = opts.capabilities
  // Reads and writes on separate pools: neither waits for the other's sockets (nor does any
  // request wait for another: see createAgents).
  const agents = { read: createAgents(), write: createAgents() }

  async function exchange(
    call: Call,
    headers: Record<string, string>,
    body: string | undefined,
    groups: GroupStream | undefined,
    known: KnownAnswer<unknown> | undefined
  ) {
    const url = new URL(`${baseUrl}/api/v1${call.path}`)
    for (const [k, v] of Object.entries(call.query ?? {})) url.searchParams.set(k, v)
    // Only reads are sent again by the transport: a write that may have reached the server is
    // never repeated here (its outcome is "unknown" and the caller decides, see offline/uncertain.ts).
    const idempotent = call.method === 'GET'
    const timeoutMs = idempotent ? readTimeoutMs : writeTimeoutMs
    // The IPC call this request serves (callContext): its Cancel aborts the request.
    const signal = currentSignal()
    let attempt = 0
    for (;;) {
      const done = opts.onRequest?.()
      try {
        const sendOpts: Parameters<typeof send>[0] = {
          method: call.method,
          url,
          headers,
          timeoutMs,
          minBodyBytesPerSecond,
          maxResponseBytes,
          agents: idempotent ? agents.read : agents.write
        }
        if (idempotent) sendOpts.firstByteTimeoutMs = firstByteTimeoutMs
        if (signal) sendOpts.signal = signal
        if (body !== undefined) sendOpts.body = body
        if (groups) sendOpts.groups = groups
        if (known) sendOpts.readWhole = () => known.expected()
        return await send(sendOpts)
      } catch (err) {
        const retry =
          idempotent &&
          err instanceof TransportError &&
          err.failure === 'network' &&
          attempt < getRetries &&
          isRetryableNetworkCode(err.code) &&
          !groups?.started
        if (!retry || signal?.aborted) throw exchangeFailure(err, { host, timeoutMs, maxResponseBytes })
        attempt += 1
        await sleep(150 * attempt)
      } finally {
        done?.()
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

  /** Performs a call (Transport.request). */
  async function request(call: Call, groups?: ListGroups, known?: KnownAnswer<unknown>): Promise<unknown> {
    const reading = { groups, known }
    const extra = isExtraOperation(call.op) ? call.op : null
    if (extra && caps.get(extra) === 'not_offered') throw notOffered(extra)
    // A write carries one Idempotency-Key, the same on every attempt (either header spelling).
    const key = call.method !== 'GET' ? (call.idempotencyKey ?? nextIdempotencyKey()) : null
    if (!call.auth) return attempt(call, extra, null, key, reading)
    const token = tokenFor()
    const spelling = authHeader.get()
    try {
      return await attempt(call, extra, { name: spelling, token }, key, reading)
    } catch (e) {
      if (!(AppError.is(e) && e.kind === 'unauthorized')) throw e
      // Refused as not authenticated under `Authorization`: once, the document's spelling alone.
      if (spelling === 'Authorization') {
        let retried: unknown
        try {
          retried = await attempt(call, extra, { name: 'Autorization', token }, key, reading)
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
    auth: { name: AuthHeaderName; token: string } | null,
    key: string | null,
    { groups, known }: { groups: ListGroups | undefined; known: KnownAnswer<unknown> | undefined }
  ): Promise<unknown> {
    const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': 'AgentDesk' }
    // The token this request carries: masked out of whatever the server answers (a server or a
    // proxy may echo request headers), except in the API-token answers that carry token values.
    const secrets: string[] = []
    if (auth) {
      headers[auth.name] = `Bearer ${auth.token}`
      secrets.push(auth.token)
    }
    if (key) headers['Idempotency-Key'] = key
    let body: string | undefined
    if (call.body !== undefined) {
      body = JSON.stringify(call.body)
      headers['Content-Type'] = 'application/json'
    }

    const stream = groups && new GroupStream(groups, call.op.startsWith('apiTokens.') ? [] : secrets)
    let raw: RawResponse
    try {
      raw = await exchange(call, headers, body, stream, known)
    } catch (e) {
      await stream?.close() // thrown once the group going on (if any) has gone
      throw e
    }
    const ok2xx = raw.status >= 200 && raw.status < 300
    // Read whole (not in steps as it came): perhaps the answer `known` knows. Not taken, the
    // search for the token and the digest made here serve its reading below.
    let offered: { clean: boolean; digest?: string } | undefined
    if (known && ok2xx && raw.read === undefined && known.expected()) {
      const bytes = [raw.body]
      offered = { clean: !(await bytesMayHold(bytes, secrets)) }
      if (offered.clean) {
        offered.digest = await digestInSteps(bytes)
        const taken = await known.take(offered.digest)
        if (taken !== null) return new TakenAnswer(taken)
      }
    }
    const digestOr = (digest: () => string | Promise<string>) => () => offered?.digest ?? digest()

    // `read`: a long answer read as it arrived (its body not joined here: see http.ts).
    if (ok2xx && (raw.read !== undefined || raw.body.length >= LARGE_ANSWER_BYTES)) {
      // A long list from a server without paging: read in steps as it arrived (http.ts), then
      // searched and hashed in steps, so main answers meanwhile (largeAnswer.ts). What the steps
      // do not read is read whole below.
      const read = await (raw.read ?? parseJsonInSteps(raw.body, undefined, undefined, stream))
      if (stream?.started) {
        // Groups went on: the answer can no longer be read whole.
        if (stream.failure !== undefined) throw stream.failure
        if (!read || !stream.ended) {
          const message = `The server's list of ${call.what}s could not be read to its end`
          throw new AppError({ kind: 'protocol', message })
        }
        if (extra && caps.get(extra) !== 'offered') caps.set(extra, 'offered')
        return null // every group went on, the last too
      }
      if (read && isRecord(read.value) && read.value.success === true) {
        const bytes = raw.pieces ?? [raw.body] // as they were kept (in the chunks they came in)
        const clean = offered?.clean ?? !(await bytesMayHold(bytes, secrets))
        const digest = digestOr(() => digestInSteps(bytes))
        return succeed(call, extra, read.value.data ?? null, secrets, clean, digest)
      }
    }
    const parsed = parseBody(raw)
    if (ok2xx && parsed.kind === 'json' && isRecord(parsed.value) && parsed.value.success === true) {
      const clean = offered?.clean ?? !jsonMayHold(parsed.text, secrets)
      return succeed(
        call,
        extra,
        parsed.value.data ?? null,
        secrets,
        clean,
        digestOr(() => digestOf(raw.body))
      )
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
      signIn: call.op === 'session.signIn',
      secrets
    })
  }

  /**
   * A success's `data`. Walked only when its text could hold the token (`clean` false; a 10,000-item
   * list seldom can); when it cannot, an item is marked as checked, and no later walk enters it
   * (mask.ts). A list's items are not: every list reaches the page as its cached rows' text, which
   * the core searches as text (offline/listText.ts), and marking them cost ~0.6 ms a 1,000 on
   * each read.
   */
  async function succeed(
    call: Call,
    extra: ExtraOperation | null,
    data: unknown,
    secrets: string[],
    clean: boolean,
    digest: () => string | Promise<string>
  ): Promise<unknown> {
    if (extra && caps.get(extra) !== 'offered') caps.set(extra, 'offered')
    if (clean && !Array.isArray(data)) markChecked(data, secrets)
    if (clean || call.op.startsWith('apiTokens.')) {
      // A list read is marked with its body's digest (answerDigest.ts); a masked one is not.
      return call.method === 'GET' && Array.isArray(data) ? markAnswer(data, await digest()) : data
    }
    return Array.isArray(data) ? maskSecretsInSteps(data, secrets) : maskSecrets(data, secrets)
  }

  const paging = opts.listPageSize !== undefined ? { listPageSize: opts.listPageSize } : {}
  return { baseUrl, request, capabilities: caps, ...paging }
}
