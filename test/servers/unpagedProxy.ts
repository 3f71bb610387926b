/**
 * A front for a real server (the embedded service) that answers lists the way the origin service
 * does (decisions.md: "the origin had no pagination"): it forwards every request with `skip` and
 * `take` taken out of its query, so a list comes whole in one answer, however long. Bodies are
 * piped both ways, untouched. `startQueryProxy` is the same front with any change of the query
 * (a server that caps `take`, say), and notes each query it forwarded. Either may relay the
 * answers at a link's speed (`bytesPerSecond`).
 */
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/**
 * Holds the next answer to a GET of `path` once `bytes` of its body went on, until `released`
 * resolves: then the rest goes on, or (`true`) the connection is cut there.
 */
export interface BodyHold {
  path: string
  bytes: number
  released: Promise<boolean | void>
  /** Set once the answer is held. */
  held?: boolean
}

export interface QueryProxy {
  /** Base URL without /api/v1. */
  url: string
  /** The next answer to hold part-way (BodyHold), taken by it. */
  hold: BodyHold | null
  /** The path and query of each request forwarded, as forwarded. */
  forwarded: string[]
  close(): Promise<void>
}

export interface ProxyOptions {
  /**
   * The answers' bytes relayed at most this fast (a remote server over a link of that speed),
   * else as they come.
   */
  bytesPerSecond?: number
}

export function startUnpagedProxy(target: string, opts: ProxyOptions = {}): Promise<QueryProxy> {
  return startQueryProxy(
    target,
    (query) => {
      query.delete('skip')
      query.delete('take')
    },
    opts
  )
}

/** `from` relayed to `to` no faster than `bytesPerSecond`, chunk by chunk, in order. */
function pacedPipe(from: http.IncomingMessage, to: http.ServerResponse, bytesPerSecond: number): void {
  let due = performance.now()
  let relayed = Promise.resolve()
  const relay = (then: () => void) => {
    const at = due
    relayed = relayed.then(() => new Promise<void>((r) => setTimeout(r, Math.max(0, at - performance.now()))))
    void relayed.then(then)
  }
  from.on('data', (chunk: Buffer) => {
    due = Math.max(due, performance.now()) + (chunk.length / bytesPerSecond) * 1000
    from.pause()
    relay(() => {
      to.write(chunk)
      from.resume()
    })
  })
  // 'end' may come while the last chunk waits: it ends the answer after it.
  from.on('end', () => relay(() => to.end()))
  from.on('error', () => to.destroy())
}

/** `from` relayed to `to` until `hold.bytes` went on, then held (BodyHold). */
function heldPipe(from: http.IncomingMessage, to: http.ServerResponse, hold: BodyHold): void {
  let sent = 0
  from.on('data', (chunk: Buffer) => {
    if (sent >= hold.bytes || sent + chunk.length < hold.bytes) {
      sent += chunk.length
      to.write(chunk)
      return
    }
    const cut = hold.bytes - sent
    sent += chunk.length
    to.write(chunk.subarray(0, cut))
    from.pause()
    hold.held = true
    void hold.released.then((drop) => {
      if (drop === true) return void to.socket?.destroy()
      to.write(chunk.subarray(cut))
      from.resume()
    })
  })
  from.on('end', () => {
    if (!from.isPaused()) to.end()
    else void hold.released.then(() => to.end())
  })
  from.on('error', () => to.destroy())
}

export async function startQueryProxy(
  target: string,
  change: (query: URLSearchParams) => void,
  opts: ProxyOptions = {}
): Promise<QueryProxy> {
  const upstream = new URL(target)
  const forwarded: string[] = []
  const agent = new http.Agent({ keepAlive: true })
  const sockets = new Set<Socket>()
  const proxy: QueryProxy = {
    url: '',
    forwarded,
    hold: null,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        agent.destroy()
        server.close(() => resolve())
      })
  }
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', upstream)
    change(url.searchParams)
    forwarded.push(`${url.pathname}${url.search}`)
    const hold = proxy.hold?.path === url.pathname && req.method === 'GET' ? proxy.hold : null
    if (hold) proxy.hold = null
    const forward = http.request(
      url,
      { method: req.method, headers: { ...req.headers, host: upstream.host }, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        if (hold) heldPipe(answer, res, hold)
        else if (opts.bytesPerSecond) pacedPipe(answer, res, opts.bytesPerSecond)
        else answer.pipe(res)
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
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return proxy
}
