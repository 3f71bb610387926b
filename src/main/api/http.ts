/**
 * The one place the API client touches the network: a single HTTP(S) exchange with deadlines (to
 * the first byte of the answer, and for the whole exchange), a cap on the answer's size and an
 * AbortSignal (the user's Cancel). Plain Node (node:http / node:https), so vitest runs it and the
 * Electron main process uses it unchanged.
 */
import http from 'node:http'
import https from 'node:https'
import type { Readable } from 'node:stream'
import { nextTurn } from '../turn'
import { ArrivingBody } from './answerBytes'
import { LARGE_ANSWER_BYTES, parseJsonInSteps, type GroupSink } from './largeAnswer'

export interface RawResponse {
  status: number
  statusText: string
  headers: http.IncomingHttpHeaders
  /** The body (of a long answer read while it arrived: its pieces joined once asked for). */
  readonly body: Buffer
  /** A long answer's JSON, read while it arrived (largeAnswer.ts; undefined: read it whole). */
  read?: Promise<{ value: unknown } | undefined>
  /**
   * A long answer's body as it was kept while it arrived, in the chunks it came in (answerBytes.ts);
   * not there (it throws) once chunks were let go behind a list handed on in groups.
   */
  pieces?: readonly Buffer[]
}

export type TransportFailure = 'network' | 'timeout' | 'too_large' | 'cancelled'

/** A failure before a complete answer arrived. `code` is Node's error code (ECONNREFUSED, …). */
export class TransportError extends Error {
  readonly failure: TransportFailure
  readonly code: string
  /** True when the request went out on a kept-alive socket that the server had already closed. */
  readonly reusedSocket: boolean
  /** True when the status line had arrived before the failure (the request certainly reached the server). */
  readonly responseStarted: boolean
  /** For a timeout: the deadline that ran out, in ms. */
  readonly limitMs: number | undefined
  /** For a timeout: the answer's body was coming, too slowly (see SendOptions.minBodyBytesPerSecond). */
  readonly slowBody: boolean
  constructor(
    failure: TransportFailure,
    code: string,
    message: string,
    reusedSocket = false,
    responseStarted = false,
    limitMs?: number,
    slowBody = false
  ) {
    super(message)
    this.name = 'TransportError'
    this.failure = failure
    this.code = code
    this.reusedSocket = reusedSocket
    this.responseStarted = responseStarted
    this.limitMs = limitMs
    this.slowBody = slowBody
  }
}

export interface SendOptions {
  method: string
  url: URL
  headers: Record<string, string>
  body?: string
  /** Deadline for the whole exchange: connect, headers and body (but see minBodyBytesPerSecond). */
  timeoutMs: number
  /**
   * When the deadline runs out while the answer's body is coming, it is moved on by `timeoutMs`
   * as long as at least this many bytes a second came since the last time it was (a long list from
   * a server without paging, ~100 MB, takes minutes on a slow line): a body that keeps coming is
   * not cut off, one that stalls or trickles is. Default 0: never moved.
   */
  minBodyBytesPerSecond?: number
  /** Deadline for the answer's status line and headers (shorter than timeoutMs to matter). */
  firstByteTimeoutMs?: number
  /** Aborting it destroys the request's socket and fails with 'cancelled'. */
  signal?: AbortSignal
  maxResponseBytes: number
  agents: Agents
  /** Where a long answer's list goes a group at a time as it is read (largeAnswer.ts). */
  groups?: GroupSink
  /**
   * Asked as a success's answer begins: whether it is read whole once it has come, not in steps
   * as it arrives (its caller may know it by its digest: transport.ts' KnownAnswer).
   */
  readWhole?: () => boolean
}

/** SendOptions.readWhole, asked in a socket's callback: what it throws means no (read in steps). */
function readWhole(opts: SendOptions): boolean {
  try {
    return opts.readWhole?.() === true
  } catch {
    return false
  }
}

export interface Agents {
  http: http.Agent
  https: https.Agent
}

/**
 * Keep-alive agents that never queue a request: a request waits for no other (a hung one holds
 * its own socket until its deadline or Cancel, and the next call opens a new connection), so
 * hung calls cannot exhaust a pool. At most `maxFreeSockets` idle sockets are kept per server.
 */
export function createAgents(): Agents {
  const options = { keepAlive: true, maxSockets: Infinity, maxTotalSockets: Infinity, maxFreeSockets: 8 }
  return { http: new http.Agent(options), https: new https.Agent(options) }
}

function errorCode(err: unknown): string {
  if (err && typeof err === 'object') {
    const code = (err as { code?: unknown }).code
    if (typeof code === 'string' && code) return code
    const cause = (err as { cause?: unknown }).cause
    if (cause && typeof cause === 'object') {
      const c = (cause as { code?: unknown }).code
      if (typeof c === 'string' && c) return c
    }
  }
  return 'EUNKNOWN'
}

/**
 * Body bytes taken in one turn of the event loop; then the answer is paused until the next turn.
 * A socket that has much waiting is read in one go (libuv reads up to 32 × 64 kB an event), and
 * every chunk's handling (the HTTP parser's, the copy into the answer's buffer, new memory's first
 * touch) was one block: with a 98-MB list arriving from a server on this machine, blocks of main of
 * 60–100 ms with main on a CPU throughout, 102–149 ms in all (2026-11-28); 46–62 ms with this.
 */
export const TURN_BYTES = 256 * 1024

/** Pauses `stream` for the rest of a turn once `bytesPerTurn` came in it (TURN_BYTES). */
export function paceByTurn(stream: Readable, bytesPerTurn = TURN_BYTES): void {
  let thisTurn = 0
  const resume = () => {
    thisTurn = 0
    if (!stream.destroyed) stream.resume()
  }
  stream.on('data', (chunk: Buffer) => {
    thisTurn += chunk.length
    if (thisTurn >= bytesPerTurn && !stream.isPaused()) {
      stream.pause()
      setImmediate(resume)
    }
  })
}

/** Bodies this long or longer are joined a step at a time (JOIN_STEP bytes a turn). */
export const JOIN_AT = 8 * 1024 * 1024
export const JOIN_STEP = 8 * 1024 * 1024

/**
 * An answer's chunks as one buffer. A long one (a list of 100,000 agents from a server without
 * paging, ~100 MB) is copied a step at a time with the event loop free in between: one
 * `Buffer.concat` of it held main for 90–150 ms (the copy, and the new memory's first touch).
 */
export async function joinChunks(chunks: Buffer[], total: number): Promise<Buffer> {
  if (total < JOIN_AT) return Buffer.concat(chunks, total)
  const body = Buffer.allocUnsafeSlow(total)
  let at = 0
  let sinceTurn = 0
  for (const chunk of chunks) {
    if (sinceTurn >= JOIN_STEP) {
      await nextTurn()
      sinceTurn = 0
    }
    body.set(chunk, at)
    at += chunk.length
    sinceTurn += chunk.length
  }
  return body
}

export function send(opts: SendOptions): Promise<RawResponse> {
  return new Promise<RawResponse>((resolve, reject) => {
    const controller = new AbortController()
    let settled = false
    let abortReason: 'timeout' | 'first_byte' | 'too_large' | 'cancelled' | null = null
    let responseStarted = false
    // A long successful answer, read while it arrives (largeAnswer.ts).
    let arriving: ArrivingBody | null = null
    const isHttps = opts.url.protocol === 'https:'
    const lib = isHttps ? https : http
    const headers: Record<string, string> = { ...opts.headers }
    if (opts.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(opts.body))

    const finish = (fn: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      clearTimeout(firstByteTimer)
      opts.signal?.removeEventListener('abort', onAbort)
      arriving?.end() // its reading ends with what came: whole, or not read (a failed answer)
      fn()
    }
    const fail = (err: unknown) =>
      finish(() => {
        if (abortReason === 'timeout' || abortReason === 'first_byte') {
          const limit =
            abortReason === 'timeout' ? deadlines * opts.timeoutMs : (opts.firstByteTimeoutMs ?? 0)
          const slow = abortReason === 'timeout' && total > 0
          reject(
            new TransportError(
              'timeout',
              'ETIMEDOUT',
              slow ? `The answer was still coming after ${limit} ms` : `No answer within ${limit} ms`,
              false,
              responseStarted,
              limit,
              slow
            )
          )
        } else if (abortReason === 'cancelled') {
          reject(new TransportError('cancelled', 'ECANCELLED', 'Cancelled', false, responseStarted))
        } else if (abortReason === 'too_large') {
          reject(
            new TransportError('too_large', 'ETOOLARGE', `Answer larger than ${opts.maxResponseBytes} bytes`)
          )
        } else {
          const code = errorCode(err)
          const message = err instanceof Error ? err.message : String(err)
          reject(new TransportError('network', code, message, req?.reusedSocket ?? false, responseStarted))
        }
      })
    const abort = (reason: 'timeout' | 'first_byte' | 'too_large' | 'cancelled') => {
      abortReason = reason
      fail(null)
      controller.abort()
      req?.destroy()
    }

    const onAbort = () => abort('cancelled')
    if (opts.signal?.aborted) {
      reject(new TransportError('cancelled', 'ECANCELLED', 'Cancelled'))
      return
    }
    opts.signal?.addEventListener('abort', onAbort, { once: true })
    // Body bytes received, those at the deadline's last move, and the deadlines run out so far.
    let total = 0
    let totalAtDeadline = 0
    let deadlines = 1
    const onDeadline = () => {
      const enough = ((opts.minBodyBytesPerSecond ?? 0) * opts.timeoutMs) / 1000
      if (enough > 0 && total > 0 && total - totalAtDeadline >= enough) {
        totalAtDeadline = total
        deadlines += 1
        timer = setTimeout(onDeadline, opts.timeoutMs)
        return
      }
      abort('timeout')
    }
    let timer = setTimeout(onDeadline, opts.timeoutMs)
    const firstByteTimer =
      opts.firstByteTimeoutMs !== undefined && opts.firstByteTimeoutMs < opts.timeoutMs
        ? setTimeout(() => abort('first_byte'), opts.firstByteTimeoutMs)
        : undefined
    let req: http.ClientRequest | undefined
    try {
      req = lib.request(
        opts.url,
        {
          method: opts.method,
          headers,
          agent: isHttps ? opts.agents.https : opts.agents.http,
          signal: controller.signal
        },
        (res) => {
          responseStarted = true
          clearTimeout(firstByteTimer)
          const declared = Number(res.headers['content-length'])
          if (Number.isFinite(declared) && declared > opts.maxResponseBytes) {
            res.resume()
            abort('too_large')
            return
          }
          const chunks: Buffer[] = []
          const status = res.statusCode ?? 0
          const ok = status >= 200 && status < 300
          const sized = Number.isFinite(declared)
          const inSteps = (body: ArrivingBody) =>
            parseJsonInSteps(body, undefined, undefined, opts.groups).catch(() => undefined)
          if (ok && sized && declared >= LARGE_ANSWER_BYTES && !readWhole(opts))
            arriving = new ArrivingBody(declared)
          let read = arriving && inSteps(arriving)
          // An answer without a length (sent in chunks as it is made: a long list from the
          // embedded service, or a server that streams) is read in steps too once it is long.
          let unsized = ok && !sized && !readWhole(opts)
          paceByTurn(res)
          res.on('data', (chunk: Buffer) => {
            if (settled) return
            total += chunk.length
            if (total > opts.maxResponseBytes) {
              abort('too_large')
              return
            }
            if (!arriving) {
              chunks.push(chunk)
              if (unsized && total >= LARGE_ANSWER_BYTES) {
                unsized = false
                const body = new ArrivingBody(null)
                for (const c of chunks.splice(0)) body.add(c)
                arriving = body
                read = inSteps(body)
              }
            } else if (total <= arriving.total) arriving.add(chunk)
            else fail(Object.assign(new Error('The answer ran past its Content-Length'), { code: 'EPROTO' }))
          })
          res.on('end', () =>
            finish(() => {
              if (arriving && read) {
                const kept = arriving
                let body: Buffer | undefined
                resolve({
                  status,
                  statusText: res.statusMessage ?? '',
                  headers: res.headers,
                  read,
                  // Asked for only where the list was not handed on in groups (its chunks kept).
                  get pieces() {
                    return kept.pieces
                  },
                  // Joined only where the answer is read whole after all (seldom: see transport.ts).
                  get body() {
                    const pieces = kept.pieces
                    return (body ??= pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces))
                  }
                })
                return
              }
              joinChunks(chunks, total).then(
                (body) =>
                  resolve({
                    status: res.statusCode ?? 0,
                    statusText: res.statusMessage ?? '',
                    headers: res.headers,
                    body
                  }),
                reject
              )
            })
          )
          res.on('error', fail)
          res.on('close', () => {
            if (!res.complete)
              fail(Object.assign(new Error('The connection closed mid-answer'), { code: 'ECONNRESET' }))
          })
        }
      )
    } catch (err) {
      // Synchronous refusals (an invalid header value, an unsupported protocol): not a network failure.
      finish(() => reject(err))
      return
    }
    req.on('error', fail)
    if (opts.body !== undefined) req.end(opts.body)
    else req.end()
  })
}
