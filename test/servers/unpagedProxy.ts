/**
 * A front for a real server (the embedded service) that answers lists the way the origin service
 * does (decisions.md: "the origin had no pagination"): it forwards every request with `skip` and
 * `take` taken out of its query, so a list comes whole in one answer, however long. Bodies are
 * piped both ways, untouched. `startQueryProxy` is the same front with any change of the query
 * (a server that caps `take`, say), and notes each query it forwarded.
 */
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export interface QueryProxy {
  /** Base URL without /api/v1. */
  url: string
  /** The path and query of each request forwarded, as forwarded. */
  forwarded: string[]
  close(): Promise<void>
}

export function startUnpagedProxy(target: string): Promise<QueryProxy> {
  return startQueryProxy(target, (query) => {
    query.delete('skip')
    query.delete('take')
  })
}

export async function startQueryProxy(
  target: string,
  change: (query: URLSearchParams) => void
): Promise<QueryProxy> {
  const upstream = new URL(target)
  const forwarded: string[] = []
  const agent = new http.Agent({ keepAlive: true })
  const sockets = new Set<Socket>()
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', upstream)
    change(url.searchParams)
    forwarded.push(`${url.pathname}${url.search}`)
    const forward = http.request(
      url,
      { method: req.method, headers: { ...req.headers, host: upstream.host }, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      }
    )
    forward.on('error', () => res.destroy())
    req.pipe(forward)
  })
  server.keepAliveTimeout = 30_000
  server.on('connection', (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        agent.destroy()
        server.close(() => resolve())
      })
  }
}
