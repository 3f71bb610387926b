/**
 * The HTTP(S) server of the embedded service, knowing no resource by name: it checks who may
 * talk to it (Host / Origin), matches a route, authenticates when the route asks for it, reads
 * the JSON body, runs the handler (once per Idempotency-Key) and sends the envelope; errors
 * become the error envelope (unexpected ones a logged 500).
 *
 * Changes (authenticated POST / PATCH / DELETE) run in the write queue, which commits those of
 * one event-loop turn together (writes.ts); their credential is checked again there, so a
 * sign-out queued before them in the same batch still refuses them. Every other request first
 * waits for changes already queued (a request never overtakes a change sent before it on the
 * same connection), and item GETs may be answered from memory while nothing changed (responses.ts).
 */
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer as createTlsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import type { UserStrict } from '../shared'
import {
  failureOf,
  HttpError,
  isJsonContentType,
  JsonArrayParts,
  notFound,
  okText,
  parseJsonObject,
  readBody,
  sendError,
  sendParts,
  sendText,
  unauthorized,
  type Router
} from './http'
import { fingerprint, idempotencyKey, type IdempotencyStore } from './idempotency'
import { isLoopbackHost, loopbackGuard } from './guard'
import type { ResponseCache } from './responses'
import type { Credential, Route } from './routes'
import type { WriteQueue } from './writes'

export interface ServerOptions {
  host: string
  port: number
  prefix: string
  maxBodyBytes: number
  router: Router<Route>
  /** The user of the request's credential; throws a 401 HttpError when there is none. */
  authenticate(req: IncomingMessage): { user: UserStrict; credential: Credential }
  /** Replays answers to a repeated Idempotency-Key. */
  idempotency: IdempotencyStore
  /** Commits changes, those of one event-loop turn in one transaction. */
  writes: WriteQueue
  /** Answers of `cache: true` routes while the database is unchanged. */
  responses: ResponseCache
  /** PEM certificate and key: serve HTTPS instead of HTTP. */
  tls?: { cert: string | Buffer; key: string | Buffer }
  log(line: string): void
}

export interface Listening {
  url: string
  port: number
  /** Stops accepting, ends open connections, then runs `after`. */
  close(after: () => void): Promise<void>
}

const CHANGES = new Set(['POST', 'PATCH', 'DELETE'])

export async function listen(o: ServerOptions): Promise<Listening> {
  let guard: ((req: IncomingMessage) => void) | null = null

  async function handle(req: IncomingMessage, res: ServerResponse) {
    guard?.(req)
    const url = req.url ?? '/'
    const q = url.indexOf('?')
    const path = q === -1 ? url : url.slice(0, q)
    if (!path.startsWith(`${o.prefix}/`)) throw notFound('Route')
    const method = req.method ?? 'GET'
    const { handler, params } = o.router.match(method, path.slice(o.prefix.length))
    const query = q === -1 ? null : new URLSearchParams(url.slice(q + 1))
    const change = handler.auth && CHANGES.has(method)
    if (!change && o.writes.pending) await o.writes.settled()
    const auth = handler.auth ? o.authenticate(req) : null
    let body: Record<string, unknown> = {}
    if (handler.body) {
      if (!isJsonContentType(req.headers['content-type'])) {
        throw new HttpError(
          415,
          'unsupported_media_type',
          'Send the body as JSON with Content-Type: application/json'
        )
      }
      body = parseJsonObject(await readBody(req, o.maxBodyBytes))
    }
    const address = req.socket.remoteAddress ?? ''
    if (!handler.auth) {
      sendText(res, 200, okText(await handler.run({ params, query, body, address })))
      return
    }
    if (!auth) throw unauthorized()
    if (!change) {
      const ctx = { ...auth, params, query, body, address }
      if (!handler.cache) {
        const data = await handler.run(ctx)
        if (data instanceof JsonArrayParts) await sendParts(res, data)
        else sendText(res, 200, okText(data))
        return
      }
      const cacheKey = `${auth.user.id}\n${url}`
      const kept = o.responses.get(cacheKey)
      if (kept !== undefined) {
        sendText(res, 200, kept)
        return
      }
      const at = o.responses.stamp()
      const text = okText(await handler.run(ctx))
      o.responses.set(cacheKey, text, at)
      sendText(res, 200, text)
      return
    }
    // Checked again when the change runs: a sign-out ahead of it in the queue has happened by then.
    const inQueue = () => ({ ...o.authenticate(req), params, query, body, address })
    const key = idempotencyKey(req)
    if (key === undefined) {
      sendText(res, 200, okText(await o.writes.run(() => handler.run(inQueue()))))
      return
    }
    const print = fingerprint(method, url, handler.body ? body : null)
    const a = await o.writes.run(() => {
      const ctx = inQueue()
      return o.idempotency.runOnce(
        ctx.user.id,
        key,
        print,
        () => handler.run(ctx),
        (data) => ({ status: 200, body: okText(data) })
      )
    })
    if (a.replayed) res.setHeader('idempotent-replayed', 'true')
    sendText(res, a.status, a.body)
  }

  function fail(req: IncomingMessage, res: ServerResponse, e: unknown) {
    if (!req.complete) req.resume() // drain what the client is still sending; never read it
    if (res.headersSent) {
      o.log(`[service] error after response started: ${(e as Error)?.stack ?? String(e)}`)
      res.destroy()
      return
    }
    if (!(e instanceof HttpError))
      o.log(`[service] ${req.method} ${req.url} failed: ${(e as Error)?.stack ?? String(e)}`)
    sendError(res, failureOf(e))
  }

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    try {
      handle(req, res).catch((e: unknown) => fail(req, res, e))
    } catch (e) {
      fail(req, res, e)
    }
  }
  const server = o.tls
    ? createTlsServer({ cert: o.tls.cert, key: o.tls.key }, onRequest)
    : createServer(onRequest)
  server.keepAliveTimeout = 30_000
  // What Node's parser refuses before any handler runs (an unknown method, a malformed line or
  // header, headers too large) gets the error envelope too, not Node's bare text answer.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy()
      return
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400
    const body = JSON.stringify({
      success: false,
      data: null,
      error: { code: 'bad_request', message: 'The request could not be read as HTTP', details: [] }
    })
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
    )
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(o.port, o.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  if (isLoopbackHost(o.host)) guard = loopbackGuard(o.host, port)
  const urlHost = o.host.includes(':') ? `[${o.host}]` : o.host
  let closing: Promise<void> | null = null
  return {
    url: `${o.tls ? 'https' : 'http'}://${urlHost}:${port}`,
    port,
    close(after) {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => {
          after()
          resolve()
        })
        server.closeAllConnections()
      })
      return closing
    }
  }
}
