/**
 * The one place the API client touches the network: a single HTTP(S) exchange with a deadline
 * and a cap on the answer's size. Plain Node (node:http / node:https), so vitest runs it and the
 * Electron main process uses it unchanged.
 */
import http from 'node:http'
import https from 'node:https'

export interface RawResponse {
  status: number
  statusText: string
  headers: http.IncomingHttpHeaders
  body: Buffer
}

export type TransportFailure = 'network' | 'timeout' | 'too_large'

/** A failure before a complete answer arrived. `code` is Node's error code (ECONNREFUSED, …). */
export class TransportError extends Error {
  readonly failure: TransportFailure
  readonly code: string
  /** True when the request went out on a kept-alive socket that the server had already closed. */
  readonly reusedSocket: boolean
  /** True when the status line had arrived before the failure (the request certainly reached the server). */
  readonly responseStarted: boolean
  constructor(
    failure: TransportFailure,
    code: string,
    message: string,
    reusedSocket = false,
    responseStarted = false
  ) {
    super(message)
    this.name = 'TransportError'
    this.failure = failure
    this.code = code
    this.reusedSocket = reusedSocket
    this.responseStarted = responseStarted
  }
}

export interface SendOptions {
  method: string
  url: URL
  headers: Record<string, string>
  body?: string
  /** Deadline for the whole exchange: connect, headers and body. */
  timeoutMs: number
  maxResponseBytes: number
  agents: { http: http.Agent; https: https.Agent }
}

export function createAgents(): { http: http.Agent; https: https.Agent } {
  return {
    http: new http.Agent({ keepAlive: true, maxSockets: 8 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 8 })
  }
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

export function send(opts: SendOptions): Promise<RawResponse> {
  return new Promise<RawResponse>((resolve, reject) => {
    const controller = new AbortController()
    let settled = false
    let abortReason: 'timeout' | 'too_large' | null = null
    let responseStarted = false
    const isHttps = opts.url.protocol === 'https:'
    const lib = isHttps ? https : http
    const headers: Record<string, string> = { ...opts.headers }
    if (opts.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(opts.body))

    const finish = (fn: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      fn()
    }
    const fail = (err: unknown) =>
      finish(() => {
        if (abortReason === 'timeout') {
          reject(new TransportError('timeout', 'ETIMEDOUT', `No answer within ${opts.timeoutMs} ms`))
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
    const abort = (reason: 'timeout' | 'too_large') => {
      abortReason = reason
      fail(null)
      controller.abort()
      req?.destroy()
    }

    const timer = setTimeout(() => abort('timeout'), opts.timeoutMs)
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
          const declared = Number(res.headers['content-length'])
          if (Number.isFinite(declared) && declared > opts.maxResponseBytes) {
            res.resume()
            abort('too_large')
            return
          }
          const chunks: Buffer[] = []
          let total = 0
          res.on('data', (chunk: Buffer) => {
            if (settled) return
            total += chunk.length
            if (total > opts.maxResponseBytes) {
              abort('too_large')
              return
            }
            chunks.push(chunk)
          })
          res.on('end', () =>
            finish(() =>
              resolve({
                status: res.statusCode ?? 0,
                statusText: res.statusMessage ?? '',
                headers: res.headers,
                body: Buffer.concat(chunks)
              })
            )
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
