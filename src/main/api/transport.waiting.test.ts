/**
 * The transport against servers that hang (issue 12, item 20) and its words for odd answers
 * (item 21), all on real HTTP servers on 127.0.0.1:
 * - a read's first byte has a shorter deadline than the whole exchange; a write's does not;
 * - hung requests never exhaust a connection pool: a ninth (or twenty-first) call answers at once,
 *   and reads and writes do not wait for each other;
 * - the AbortSignal of the current call (callContext) aborts the request and closes its socket;
 * - a plain 500 is the server's internal error, not a gateway's;
 * - a create answered `data: null` was accepted without an answer, not "not found".
 */
import { setMaxListeners } from 'node:events'
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { AppError } from '../../shared/errors'
import { startScriptedServer, type ScriptedServer } from '../../../test/servers/scriptedServer'
import { runInCall } from '../callContext'
import { createApiClient, memoryCapabilityStore, type ApiClientOptions } from './client'

async function failure(fn: () => Promise<unknown>): Promise<AppError> {
  try {
    await fn()
  } catch (e) {
    expect(e).toBeInstanceOf(AppError)
    return e as AppError
  }
  throw new Error('expected the call to fail')
}

const list = (items: unknown[]) => JSON.stringify({ success: true, data: items })

/** `server` listening on 127.0.0.1; `close` ends it with every socket (a hung request holds one). */
async function listening(server: http.Server) {
  const sockets = new Set<Socket>()
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      })
  }
}

/**
 * A server whose behaviour per request is `route(method, path)`: 'hang' never answers; 'slowBody'
 * sends headers at once and the body after `bodyDelayMs`; anything else answers an empty list.
 */
async function startRoutedServer(route: (method: string, path: string) => 'hang' | 'slowBody' | 'ok') {
  const state = { hung: 0, closedHung: 0, bodyDelayMs: 0 }
  const server = http.createServer((req, res) => {
    const kind = route(req.method ?? 'GET', new URL(req.url ?? '/', 'http://x').pathname)
    req.resume()
    if (kind === 'hang') {
      state.hung += 1
      req.socket.once('close', () => (state.closedHung += 1))
      return
    }
    const body = req.method === 'GET' ? list([]) : JSON.stringify({ success: true, data: { id: 'n1' } })
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(body.length) })
    if (kind === 'slowBody') {
      res.write(body.slice(0, 5))
      setTimeout(() => res.end(body.slice(5)), state.bodyDelayMs)
    } else res.end(body)
  })
  return { ...(await listening(server)), state }
}

const clientFor = (url: string, extra: Partial<ApiClientOptions> = {}) =>
  createApiClient({
    baseUrl: url,
    getToken: () => 'tok-123456789',
    capabilities: memoryCapabilityStore(),
    getRetries: 0,
    ...extra
  })

describe('deadlines', () => {
  it('a read with no first byte fails at the first-byte deadline, not the whole one', async () => {
    const srv = await startRoutedServer(() => 'hang')
    try {
      const started = Date.now()
      const err = await failure(() =>
        clientFor(srv.url, { timeoutMs: 10_000, firstByteTimeoutMs: 300 }).agents.list()
      )
      expect(err.kind).toBe('timeout')
      expect(err.message).toBe('127.0.0.1:' + new URL(srv.url).port + ' did not answer within 300 ms')
      expect(Date.now() - started).toBeLessThan(5000)
    } finally {
      await srv.close()
    }
  })

  it('a body that streams in after the first byte has the whole deadline', async () => {
    const srv = await startRoutedServer(() => 'slowBody')
    srv.state.bodyDelayMs = 700
    try {
      const items = await clientFor(srv.url, { timeoutMs: 10_000, firstByteTimeoutMs: 300 }).agents.list()
      expect(items).toEqual([])
    } finally {
      await srv.close()
    }
  })

  it("a write's first byte has the whole deadline (its outcome would be unknown otherwise)", async () => {
    const srv = await startRoutedServer((m) => (m === 'POST' ? 'hang' : 'ok'))
    try {
      const c = clientFor(srv.url, { timeoutMs: 900, writeTimeoutMs: 900, firstByteTimeoutMs: 100 })
      const err = await failure(() => c.tools.create({ name: 't', type: 'SEARCH' }))
      expect(err.message).toMatch(/did not answer within 900 ms$/)
    } finally {
      await srv.close()
    }
  })

  it('the first-byte deadline is never longer than the whole one', async () => {
    const srv = await startRoutedServer(() => 'hang')
    try {
      const err = await failure(() =>
        clientFor(srv.url, { timeoutMs: 400, firstByteTimeoutMs: 5000 }).agents.list()
      )
      expect(err.message).toMatch(/did not answer within 400 ms$/)
    } finally {
      await srv.close()
    }
  })
})

/**
 * A server answering `GET /agents` with `count` agents (~1 kB each) at `bytesPerTick` bytes every
 * 25 ms, after a first `head` bytes at once: a long list on a slow line.
 */
async function startDrippingServer(count: number, head: number, bytesPerTick: number) {
  const agents = Array.from({ length: count }, (_, i) => ({
    id: `a${i}`,
    name: `Agent ${i} ${'x'.repeat(900)}`
  }))
  const body = Buffer.from(list(agents))
  const server = http.createServer((req, res) => {
    req.resume()
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(body.length) })
    let at = Math.min(head, body.length)
    res.write(body.subarray(0, at))
    const tick = setInterval(() => {
      if (res.destroyed) return clearInterval(tick)
      const next = Math.min(body.length, at + bytesPerTick)
      res.write(body.subarray(at, next))
      at = next
      if (at === body.length) {
        clearInterval(tick)
        res.end()
      }
    }, 25)
    res.on('close', () => clearInterval(tick))
  })
  return { ...(await listening(server)), bytes: body.length }
}

describe('a long answer on a slow line', () => {
  it('is read whole while it keeps coming, past the deadline', async () => {
    // ~3 MB at ~4 MB/s: ~0.8 s, against a deadline of 300 ms.
    const srv = await startDrippingServer(3000, 64 * 1024, 100 * 1024)
    try {
      const started = Date.now()
      const c = clientFor(srv.url, {
        timeoutMs: 300,
        firstByteTimeoutMs: 300,
        minBodyBytesPerSecond: 256 * 1024
      })
      const agents = await c.agents.list()
      expect(agents).toHaveLength(3000)
      expect(agents[2999]?.id).toBe('a2999')
      expect(Date.now() - started).toBeGreaterThan(300)
    } finally {
      await srv.close()
    }
  })

  it('is cut off at the deadline when no rate keeps it going', async () => {
    const srv = await startDrippingServer(3000, 64 * 1024, 100 * 1024)
    try {
      const c = clientFor(srv.url, { timeoutMs: 300, minBodyBytesPerSecond: 0 })
      const err = await failure(() => c.agents.list())
      expect(err.kind).toBe('timeout')
      expect(err.message).toMatch(/did not finish its answer within 300 ms: it came too slowly or stopped$/)
    } finally {
      await srv.close()
    }
  })

  it('is cut off at a later deadline once it comes slower than the rate', async () => {
    // 512 kB at once (more than a deadline's worth at 256 kB/s), then 1 kB every 25 ms (40 kB/s).
    const srv = await startDrippingServer(3000, 512 * 1024, 1024)
    try {
      const started = Date.now()
      const c = clientFor(srv.url, { timeoutMs: 400, minBodyBytesPerSecond: 256 * 1024 })
      const err = await failure(() => c.agents.list())
      expect(err.kind).toBe('timeout')
      expect(err.message).toMatch(/did not finish its answer within 800 ms: it came too slowly or stopped$/)
      expect(Date.now() - started).toBeLessThan(3000)
    } finally {
      await srv.close()
    }
  })
})

describe('hung requests do not exhaust the pool', () => {
  let srv: Awaited<ReturnType<typeof startRoutedServer>>
  let hang: (m: string, p: string) => boolean
  beforeAll(async () => {
    srv = await startRoutedServer((m, p) => (hang(m, p) ? 'hang' : 'ok'))
  })
  afterAll(() => srv.close())
  beforeEach(() => {
    srv.state.hung = 0
    srv.state.closedHung = 0
  })

  /** Starts `n` calls that hang; returns the abort that ends them (the user's Cancel). */
  async function hangMany(n: number, call: () => Promise<unknown>) {
    const controller = new AbortController()
    setMaxListeners(4 * n, controller.signal)
    const before = srv.state.hung
    const calls = Array.from({ length: n }, () => runInCall(controller.signal, call).catch((e: unknown) => e))
    const start = Date.now()
    while (srv.state.hung < before + n) {
      if (Date.now() - start > 5000) throw new Error('the hung requests did not all reach the server')
      await new Promise((r) => setTimeout(r, 20))
    }
    return async () => {
      controller.abort()
      const errs = await Promise.all(calls)
      for (const e of errs) expect((e as AppError).kind).toBe('cancelled')
    }
  }

  it('eight hung reads: a ninth read to a healthy route answers at once', async () => {
    hang = (m, p) => m === 'GET' && p.endsWith('/agents')
    const c = clientFor(srv.url, { timeoutMs: 20_000 })
    const end = await hangMany(8, () => c.agents.list())
    const started = Date.now()
    expect(await c.tools.list()).toEqual([])
    expect(Date.now() - started).toBeLessThan(2000)
    await end()
    // Cancelling closed every hung request's socket.
    const start = Date.now()
    while (srv.state.closedHung < 8 && Date.now() - start < 3000) await new Promise((r) => setTimeout(r, 20))
    expect(srv.state.closedHung).toBe(8)
  })

  it('twenty hung writes do not hold up a read, and twenty hung reads do not hold up a write', async () => {
    hang = (m) => m === 'POST'
    const c = clientFor(srv.url, { timeoutMs: 20_000 })
    const endWrites = await hangMany(20, () => c.tools.create({ name: 't', type: 'SEARCH' }))
    let started = Date.now()
    expect(await c.agents.list()).toEqual([])
    expect(Date.now() - started).toBeLessThan(2000)
    await endWrites()

    hang = (m) => m === 'GET'
    const endReads = await hangMany(20, () => c.agents.list())
    hang = (m) => m === 'GET'
    started = Date.now()
    expect((await c.tools.create({ name: 't', type: 'SEARCH' })).id).toBe('n1')
    expect(Date.now() - started).toBeLessThan(2000)
    await endReads()
  })

  it('a call whose signal is already aborted sends nothing', async () => {
    hang = () => false
    const controller = new AbortController()
    controller.abort()
    const c = clientFor(srv.url)
    const err = await failure(() => runInCall(controller.signal, () => c.agents.list()))
    expect(err.kind).toBe('cancelled')
    expect(srv.state.hung).toBe(0)
  })
})

describe('words for odd answers', () => {
  let s: ScriptedServer
  beforeAll(async () => {
    s = await startScriptedServer()
  })
  afterAll(() => s.close())
  beforeEach(() => {
    s.queue.length = 0
  })
  const c = () => clientFor(s.url)

  it('a plain 500 is an internal error of the server; 502 and 504 stay gateway errors', async () => {
    s.queue.push({ status: 500 })
    const plain = await failure(() => c().agents.list())
    expect(plain).toMatchObject({ kind: 'server', status: 500 })
    expect(plain.message).toBe('The server had an internal error (500 Internal Server Error)')
    s.queue.push(s.json(500, { detail: 'Internal Server Error' }))
    expect((await failure(() => c().agents.list())).message).toBe(
      'The server had an internal error (500 Internal Server Error)'
    )
    s.queue.push({ status: 500, headers: { 'Content-Type': 'text/html' }, body: '<html>oops</html>' })
    const page = await failure(() => c().agents.list())
    expect(page.message).toBe('The server answered with an error page (500 Internal Server Error)')
    expect(page.message).not.toMatch(/gateway/i)
    s.queue.push({ status: 502 })
    expect((await failure(() => c().agents.list())).message).toBe(
      "The server's gateway could not reach the service (502 Bad Gateway)"
    )
    s.queue.push({ status: 504, headers: { 'Content-Type': 'text/html' }, body: '<html>x</html>' })
    expect((await failure(() => c().agents.list())).message).toMatch(/^The server's gateway/)
  })

  it('a create answered `data: null` or `{}` was accepted without an answer, not "not found"', async () => {
    for (const data of [null, {}]) {
      s.queue.push(s.json(200, { success: true, data }))
      const err = await failure(() => c().tools.create({ name: 't', type: 'SEARCH' }))
      expect(err.kind).not.toBe('not_found')
      expect(err.code).toBe('accepted_without_answer')
      expect(err.message).toBe(
        'The server accepted the new tool without sending it back: the list is refreshed to show it'
      )
    }
    s.queue.push(s.json(200, { success: true, data: null }))
    const link = await failure(() => c().agentTools.create({ agentId: 'a', toolId: 't' }))
    expect(link.code).toBe('accepted_without_answer')
    // A read answered `data: null` is still "not found" (how the origin said it).
    s.queue.push(s.json(200, { success: true, data: null }))
    expect((await failure(() => c().tools.get('t'))).kind).toBe('not_found')
  })
})
