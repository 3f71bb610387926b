/**
 * A real HTTP server in front of another (a gate): it passes requests through to `target`, except
 * those `hold` picks, which it never answers — as a server that hangs on some calls while others
 * are fine. Each held request records when its client closed the connection (a Cancel, a deadline).
 */
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export interface HeldRequest {
  method: string
  path: string
  /** Set when the client's socket closed. */
  closedAt: number | null
}

export interface GateServer {
  url: string
  /** Which requests hang; default none. */
  hold: (r: { method: string; path: string }) => boolean
  held: HeldRequest[]
  /** Requests passed through, in order. */
  passed: { method: string; path: string }[]
  close(): Promise<void>
}

export async function startGateServer(target: string): Promise<GateServer> {
  const sockets = new Set<Socket>()
  const gate: GateServer = {
    url: '',
    hold: () => false,
    held: [],
    passed: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://gate').pathname
    const method = req.method ?? 'GET'
    if (gate.hold({ method, path })) {
      const h: HeldRequest = { method, path, closedAt: null }
      gate.held.push(h)
      req.resume()
      req.socket.once('close', () => {
        h.closedAt = Date.now()
      })
      return
    }
    gate.passed.push({ method, path })
    const headers = { ...req.headers }
    delete headers.host
    const out = http.request(new URL(req.url ?? '/', target), { method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    out.on('error', () => {
      res.writeHead(502)
      res.end()
    })
    req.pipe(out)
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  gate.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return gate
}
