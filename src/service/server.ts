/**
 * The HTTP server of the embedded service, knowing no resource by name: it matches a route,
 * authenticates when the route asks for it, reads the JSON body, runs the handler and sends
 * the envelope; errors become the error envelope (unexpected ones a logged 500).
 */
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { UserStrict } from '../shared'
import {
  HttpError,
  isJsonContentType,
  notFound,
  parseJsonObject,
  readBody,
  sendError,
  sendOk,
  unauthorized,
  type Router
} from './http'
import type { Route } from './routes'

export interface ServerOptions {
  host: string
  port: number
  prefix: string
  maxBodyBytes: number
  router: Router<Route>
  /** The user of the request's credential; throws a 401 HttpError when there is none. */
  authenticate(req: IncomingMessage): UserStrict
  log(line: string): void
}

export interface Listening {
  url: string
  port: number
  /** Stops accepting, ends open connections, then runs `after`. */
  close(after: () => void): Promise<void>
}

export async function listen(o: ServerOptions): Promise<Listening> {
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = req.url ?? '/'
    const q = url.indexOf('?')
    const path = q === -1 ? url : url.slice(0, q)
    if (!path.startsWith(`${o.prefix}/`)) throw notFound('Route')
    const { handler, params } = o.router.match(req.method ?? 'GET', path.slice(o.prefix.length))
    const query = q === -1 ? null : new URLSearchParams(url.slice(q + 1))
    const user = handler.auth ? o.authenticate(req) : null
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
    let data: unknown
    if (handler.auth) {
      if (!user) throw unauthorized()
      data = await handler.run({ user, params, query, body })
    } else {
      data = await handler.run({ params, query, body })
    }
    sendOk(res, data)
  }

  function fail(req: IncomingMessage, res: ServerResponse, e: unknown) {
    if (!req.complete) req.resume() // drain what the client is still sending; never read it
    if (res.headersSent) {
      o.log(`[service] error after response started: ${(e as Error)?.stack ?? String(e)}`)
      res.destroy()
      return
    }
    if (e instanceof HttpError) {
      sendError(res, e)
      return
    }
    o.log(`[service] ${req.method} ${req.url} failed: ${(e as Error)?.stack ?? String(e)}`)
    sendError(
      res,
      new HttpError(500, 'internal', 'Something went wrong in the service; the request was not completed')
    )
  }

  const server = createServer((req, res) => {
    try {
      handle(req, res).catch((e: unknown) => fail(req, res, e))
    } catch (e) {
      fail(req, res, e)
    }
  })
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
  const urlHost = o.host.includes(':') ? `[${o.host}]` : o.host
  let closing: Promise<void> | null = null
  return {
    url: `http://${urlHost}:${port}`,
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
