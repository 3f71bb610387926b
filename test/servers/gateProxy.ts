/**
 * A real HTTP proxy on 127.0.0.1 in front of another server (usually the embedded service), for
 * tests that must act at an exact point of an exchange: it records every request, can be "down"
 * (every connection is cut), can answer a request itself, and lets a test run code (e.g. SIGKILL
 * the client) before a request is forwarded or after the upstream server answered it, before the
 * answer is relayed.
 */
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export interface GateRequest {
  /** 1-based arrival number. */
  n: number
  method: string
  /** Path without the query, e.g. `/api/v1/agents`. */
  path: string
  headers: http.IncomingHttpHeaders
  body: string
  /** Set once the upstream server answered (the request reached it). */
  upstreamStatus?: number
}

/** What to do with a request: forward it, cut the connection, or answer with this JSON. */
export type GateDecision = 'forward' | 'drop' | { status: number; json: unknown }

export interface GateProxy {
  url: string
  requests: GateRequest[]
  /**
   * 'down': the port refuses connections (like a server that went away: nothing was sent, so a
   * write's outcome is known); 'pass' listens on the same port again.
   */
  mode: 'pass' | 'down'
  /** Runs before a request is forwarded; decides what happens to it. */
  before?: (r: GateRequest) => GateDecision | Promise<GateDecision>
  /** Runs after the upstream server answered, before the answer is relayed: 'drop' cuts it. */
  after?: (r: GateRequest) => 'relay' | 'drop' | Promise<'relay' | 'drop'>
  close(): Promise<void>
}

export async function startGateProxy(upstream: string): Promise<GateProxy> {
  const target = new URL(upstream)
  const sockets = new Set<Socket>()
  const upstreamAgent = new http.Agent({ keepAlive: false })
  let count = 0

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost')
      const r: GateRequest = {
        n: ++count,
        method: req.method ?? '',
        path: url.pathname,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8')
      }
      gate.requests.push(r)
      void handle(r, req, res).catch(() => req.socket.destroy())
    })
  })

  async function handle(r: GateRequest, req: http.IncomingMessage, res: http.ServerResponse) {
    const decision = gate.before ? await gate.before(r) : 'forward'
    if (decision === 'drop') {
      req.socket.destroy()
      return
    }
    if (decision !== 'forward') {
      const body = JSON.stringify(decision.json)
      res.writeHead(decision.status, {
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(body))
      })
      res.end(body)
      return
    }
    const headers = { ...req.headers, host: target.host }
    const answer = await new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
      (resolve, reject) => {
        const up = http.request(
          {
            host: target.hostname,
            port: target.port,
            method: r.method,
            path: req.url,
            headers,
            agent: upstreamAgent
          },
          (upRes) => {
            const parts: Buffer[] = []
            upRes.on('data', (c: Buffer) => parts.push(c))
            upRes.on('end', () =>
              resolve({ status: upRes.statusCode ?? 502, headers: upRes.headers, body: Buffer.concat(parts) })
            )
            upRes.on('error', reject)
          }
        )
        up.on('error', reject)
        up.end(r.body)
      }
    )
    r.upstreamStatus = answer.status
    const then = gate.after ? await gate.after(r) : 'relay'
    if (then === 'drop' || res.destroyed) {
      req.socket.destroy()
      return
    }
    const out: http.OutgoingHttpHeaders = { ...answer.headers }
    delete out['transfer-encoding']
    delete out.connection
    out['content-length'] = String(answer.body.length)
    res.writeHead(answer.status, out)
    res.end(answer.body)
  }

  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const port = (server.address() as AddressInfo).port
  let mode: 'pass' | 'down' = 'pass'

  const gate: GateProxy = {
    url: `http://127.0.0.1:${port}`,
    requests: [],
    get mode() {
      return mode
    },
    set mode(next) {
      if (next === mode) return
      mode = next
      if (next === 'down') {
        server.close()
        for (const s of sockets) s.destroy()
      } else server.listen(port, '127.0.0.1')
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
        server.closeAllConnections()
        upstreamAgent.destroy()
      })
  }
  return gate
}
