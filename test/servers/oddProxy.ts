/**
 * A misbehaving front for a real server (the embedded service): it forwards requests and, where a
 * rule says so, misbehaves the way flaky proxies and overloaded servers do — it lets the server
 * store a write and then never answers or cuts the connection, makes writes slow while reads stay
 * fast, answers 429/503 with `Retry-After`, fails with a 502, or resets without forwarding.
 * Every request is recorded with its headers (to check the `Idempotency-Key`).
 */
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export type OddAction =
  /** Forward, let the server store it, then never answer. */
  | 'forwardThenHang'
  /** Forward, let the server store it, then cut the connection before the answer. */
  | 'forwardThenCut'
  /** Cut the connection without forwarding. */
  | 'reset'
  /** Wait, then forward (the server stores it late) and answer. */
  | { delayMs: number }
  /** Answer with this status (429, 502, 503…), optionally with Retry-After, without forwarding. */
  | { status: number; retryAfter?: string }

export interface OddRule {
  method?: string
  /** Matches when the path (without /api/v1 and query) starts with this. */
  path?: string
  action: OddAction
  /** How many requests the rule applies to; default every one. */
  times?: number
}

export interface OddRequest {
  method: string
  path: string
  headers: http.IncomingHttpHeaders
  body: string
  at: number
}

export interface OddProxy {
  url: string
  requests: OddRequest[]
  rules: OddRule[]
  /** Requests of this method whose path (without /api/v1) starts with `path`. */
  count(method: string, path: string): number
  close(): Promise<void>
}

export async function startOddProxy(target: string): Promise<OddProxy> {
  const to = new URL(target)
  const sockets = new Set<Socket>()
  const agent = new http.Agent({ keepAlive: false })
  const state: OddProxy = {
    url: '',
    requests: [],
    rules: [],
    count: (method, path) =>
      state.requests.filter((r) => r.method === method && r.path.replace(/^\/api\/v1/, '').startsWith(path))
        .length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
        server.closeAllConnections()
        agent.destroy()
      })
  }

  function ruleFor(method: string, path: string): OddRule | null {
    const p = path.replace(/^\/api\/v1/, '')
    for (const r of state.rules) {
      if (r.times !== undefined && r.times <= 0) continue
      if (r.method && r.method !== method) continue
      if (r.path && !p.startsWith(r.path)) continue
      if (r.times !== undefined) r.times -= 1
      return r
    }
    return null
  }

  function forward(
    req: http.IncomingMessage,
    body: Buffer
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const headers = { ...req.headers, host: to.host }
      const out = http.request(
        { host: to.hostname, port: to.port, method: req.method, path: req.url, headers, agent },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) })
          )
          res.on('error', reject)
        }
      )
      out.on('error', reject)
      out.end(body)
    })
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const method = req.method ?? 'GET'
      const path = new URL(req.url ?? '/', 'http://x').pathname
      state.requests.push({ method, path, headers: req.headers, body: body.toString('utf8'), at: Date.now() })
      const rule = ruleFor(method, path)
      const action = rule?.action
      const pass = () =>
        forward(req, body).then(
          (r) => {
            if (res.destroyed) return
            const headers = { ...r.headers }
            delete headers['transfer-encoding']
            headers['content-length'] = String(r.body.length)
            res.writeHead(r.status, headers)
            res.end(r.body)
          },
          () => req.socket.destroy()
        )
      if (action === undefined) return void pass()
      if (action === 'reset') return void req.socket.destroy()
      if (action === 'forwardThenHang') return void forward(req, body).catch(() => undefined)
      if (action === 'forwardThenCut') {
        return void forward(req, body).then(
          () => req.socket.destroy(),
          () => req.socket.destroy()
        )
      }
      if ('delayMs' in action) {
        // The server gets it late even when the client has given up (it stores what it was sent).
        setTimeout(() => void pass(), action.delayMs)
        return
      }
      const headers: Record<string, string> = { 'Content-Type': 'application/json' }
      if (action.retryAfter !== undefined) headers['Retry-After'] = action.retryAfter
      res.writeHead(action.status, headers)
      res.end(JSON.stringify({ success: false, error: { code: 'unavailable', message: 'Come back later' } }))
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
