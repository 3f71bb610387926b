/**
 * A real reverse proxy in front of a real service that, like a careless server or proxy, echoes
 * the request's headers (`Authorization`, `Autorization`, all of them) back in its error answers:
 * in the status text, in a response header and in the body, in the error shapes the client reads
 * (our envelope with field details, FastAPI's `detail` string and list, `{message}`, plain text).
 *
 * Modes: 'pass' forwards everything (an upstream error is replaced by an echoing one), 'down'
 * refuses connections (the client goes offline; nothing was sent, so a write is simply queued), 'echo-writes' answers every non-GET with an
 * echoing 422 and forwards the reads.
 */
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export type EchoShape = 'envelope' | 'detail' | 'detail-list' | 'message' | 'text'
export const ECHO_SHAPES: readonly EchoShape[] = ['envelope', 'detail', 'detail-list', 'message', 'text']

export interface EchoingProxy {
  url: string
  mode: 'pass' | 'down' | 'echo-writes'
  /** The body shape of the next echoing answers. */
  shape: EchoShape
  /** The status of the echoing answers to writes in 'echo-writes' mode. Default 422. */
  writeStatus: number
  /** Every echoing answer sent: status line text and body. */
  echoed: { statusText: string; body: string }[]
  close(): Promise<void>
}

function headerText(headers: http.IncomingHttpHeaders): string {
  return Object.entries(headers)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : (v ?? '')}`)
    .join('; ')
}

function echoBody(shape: EchoShape, echo: string): { type: string; body: string } {
  const json = (v: unknown) => ({ type: 'application/json', body: JSON.stringify(v) })
  switch (shape) {
    case 'envelope':
      return json({
        success: false,
        data: null,
        error: {
          code: `rejected ${echo}`,
          message: `Rejected the request (${echo})`,
          details: [{ field: 'name', message: `Not with ${echo}` }]
        }
      })
    case 'detail':
      return json({ detail: `Rejected the request (${echo})` })
    case 'detail-list':
      return json({ detail: [{ loc: ['body', 'name'], msg: `Not with ${echo}`, type: 'value_error' }] })
    case 'message':
      return json({ message: `Rejected the request (${echo})`, error: echo })
    case 'text':
      return { type: 'text/plain', body: `Rejected the request (${echo})` }
  }
}

export async function startEchoingProxy(upstream: string): Promise<EchoingProxy> {
  const target = new URL(upstream)
  const sockets = new Set<Socket>()
  let mode: EchoingProxy['mode'] = 'pass'
  let port = 0
  const state: EchoingProxy = {
    url: '',
    get mode() {
      return mode
    },
    set mode(next) {
      const wasDown = mode === 'down'
      mode = next
      if (next === 'down' && !wasDown) {
        server.close()
        for (const s of sockets) s.destroy()
      } else if (next !== 'down' && wasDown) server.listen(port, '127.0.0.1')
    },
    shape: 'envelope',
    writeStatus: 422,
    echoed: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }

  function echo(req: http.IncomingMessage, res: http.ServerResponse, status: number): void {
    const auth = String(req.headers.authorization ?? req.headers.autorization ?? '')
    const all = headerText(req.headers)
    const statusText = `Refused ${auth}`.slice(0, 900)
    const { type, body } = echoBody(state.shape, `${all}; Authorization was ${auth}`)
    state.echoed.push({ statusText, body })
    res.writeHead(status, statusText, {
      'Content-Type': type,
      'X-Echo-Authorization': auth,
      'Retry-After': auth
    })
    res.end(body)
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      if (state.mode === 'echo-writes' && req.method !== 'GET') {
        echo(req, res, state.writeStatus)
        return
      }
      const headers = { ...req.headers, host: target.host }
      const out = http.request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers },
        (up) => {
          const upChunks: Buffer[] = []
          up.on('data', (c: Buffer) => upChunks.push(c))
          up.on('end', () => {
            const status = up.statusCode ?? 502
            if (status >= 400) {
              echo(req, res, status)
              return
            }
            res.writeHead(status, up.headers)
            res.end(Buffer.concat(upChunks))
          })
        }
      )
      out.on('error', () => req.socket.destroy())
      out.end(Buffer.concat(chunks))
    })
  })
  server.on('connection', (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  port = (server.address() as AddressInfo).port
  state.url = `http://127.0.0.1:${port}`
  return state
}
