/**
 * A tiny real HTTP server whose answers a test scripts one by one: for failure shapes no sane
 * server produces on purpose (odd bodies, cut connections, stalled bodies).
 */
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export interface ScriptedRequest {
  method: string
  path: string
  query: string
  headers: http.IncomingHttpHeaders
  body: string
}

export type ScriptedAnswer =
  | { status: number; statusText?: string; headers?: Record<string, string>; body?: string | Buffer }
  /** Destroy the socket without answering. */
  | 'destroy'
  /** Never answer. */
  | 'hang'
  /** Send the status line and part of the body, then stall. */
  | { stallAfter: string; status: number }
  /** Send the body in chunks without Content-Length (chunked encoding). */
  | { chunked: Buffer[]; status: number; headers?: Record<string, string> }
  /**
   * Send a JSON body with its Content-Length up to byte `until`, then the rest once `then`
   * resolves 'end', or destroy the socket on 'cut'.
   */
  | { held: string; until: number; then: Promise<'end' | 'cut'>; status: number }

export interface ScriptedServer {
  url: string
  requests: ScriptedRequest[]
  /** Answers to use in order; when empty, `fallback` answers. */
  queue: ScriptedAnswer[]
  fallback: ScriptedAnswer
  /** Shorthand: JSON answer. */
  json(status: number, value: unknown, headers?: Record<string, string>): ScriptedAnswer
  close(): Promise<void>
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  const sockets = new Set<Socket>()
  const state: ScriptedServer = {
    url: '',
    requests: [],
    queue: [],
    fallback: {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: '{"success":true,"data":null}'
    },
    json: (status, value, headers) => ({
      status,
      headers: { 'Content-Type': 'application/json', ...(headers ?? {}) },
      body: JSON.stringify(value)
    }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost')
      state.requests.push({
        method: req.method ?? '',
        path: url.pathname,
        query: url.search,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8')
      })
      const answer = state.queue.length ? (state.queue.shift() as ScriptedAnswer) : state.fallback
      if (answer === 'destroy') {
        req.socket.destroy()
        return
      }
      if (answer === 'hang') return
      if ('stallAfter' in answer) {
        res.writeHead(answer.status, { 'Content-Type': 'application/json', 'Content-Length': '100000' })
        res.write(answer.stallAfter)
        return
      }
      if ('held' in answer) {
        const body = Buffer.from(answer.held)
        res.writeHead(answer.status, {
          'Content-Type': 'application/json',
          'Content-Length': String(body.length)
        })
        res.write(body.subarray(0, answer.until))
        void answer.then.then((next) =>
          next === 'end' ? res.end(body.subarray(answer.until)) : req.socket.destroy()
        )
        return
      }
      if ('chunked' in answer) {
        res.writeHead(answer.status, { 'Content-Type': 'application/json', ...(answer.headers ?? {}) })
        for (const c of answer.chunked) res.write(c)
        res.end()
        return
      }
      const body = answer.body ?? ''
      res.writeHead(answer.status, answer.statusText ?? http.STATUS_CODES[answer.status] ?? '', {
        'Content-Length': String(Buffer.byteLength(body)),
        ...(answer.headers ?? {})
      })
      res.end(body)
    })
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return state
}
