/**
 * Writes on the wire: the Idempotency-Key header, no automatic repeat of a write, the longer
 * write deadline, and Retry-After read as seconds or as an HTTP date (scripted real server).
 */
import http from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { AppError } from '../../shared/errors'
import { startScriptedServer, type ScriptedServer } from '../../../test/servers/scriptedServer'
import { createApiClient, memoryCapabilityStore, type ApiClientOptions } from './client'
import { withIdempotencyKey } from './idempotency'
import { retryAfterSeconds } from './normalize'

async function failure(fn: () => Promise<unknown>): Promise<AppError> {
  try {
    await fn()
  } catch (e) {
    expect(e).toBeInstanceOf(AppError)
    return e as AppError
  }
  throw new Error('expected the call to fail')
}

const tool = { id: 't1', name: 'T', type: 'SEARCH', createdAt: '2026-01-01T00:00:00.000Z' }

describe('writes on the wire (scripted server)', () => {
  let s: ScriptedServer
  const client = (extra: Partial<ApiClientOptions> = {}) =>
    createApiClient({
      baseUrl: s.url,
      getToken: () => 'tok',
      capabilities: memoryCapabilityStore(),
      ...extra
    })

  beforeAll(async () => {
    s = await startScriptedServer()
  })
  beforeEach(() => {
    s.queue.length = 0
    s.requests.length = 0
  })
  afterAll(() => s.close())

  it('a POST cut on a reused keep-alive connection is not sent again by the transport; a GET is', async () => {
    const c = client()
    s.queue.push(s.json(200, { success: true, data: [] }))
    await c.tools.list() // opens the kept-alive connection
    s.queue.push('destroy')
    const err = await failure(() => c.tools.create({ name: 'T', type: 'SEARCH' }))
    expect(err.kind).toBe('network')
    expect(s.requests.filter((r) => r.method === 'POST')).toHaveLength(1)

    s.queue.push('destroy', s.json(200, { success: true, data: [tool] }))
    expect(await c.tools.list()).toHaveLength(1)
    expect(s.requests.filter((r) => r.method === 'GET')).toHaveLength(3)
  })

  it('sends the change’s Idempotency-Key on writes (numbered per request), none on reads', async () => {
    const c = client()
    s.queue.push(s.json(200, { success: true, data: tool }), s.json(200, { success: true, data: tool }))
    s.queue.push(s.json(200, { success: true, data: [tool] }))
    await withIdempotencyKey('k-123', async () => {
      await c.tools.create({ name: 'T', type: 'SEARCH' })
      await c.tools.update('t1', { name: 'U' })
      await c.tools.list()
    })
    expect(s.requests.map((r) => [r.method, r.headers['idempotency-key']])).toEqual([
      ['POST', 'k-123'],
      ['PATCH', 'k-123.2'],
      ['GET', undefined]
    ])
  })

  it('gives writes the longer deadline', async () => {
    const c = client({ timeoutMs: 150, writeTimeoutMs: 2000 })
    s.queue.push('hang')
    const started = Date.now()
    expect((await failure(() => c.tools.list())).kind).toBe('timeout')
    expect(Date.now() - started).toBeLessThan(1500)
    // A write answered after the read deadline still succeeds.
    const slow = await startDelayed(400)
    try {
      const created = await client({ baseUrl: slow.url, timeoutMs: 150, writeTimeoutMs: 2000 }).tools.create({
        name: 'T',
        type: 'SEARCH'
      })
      expect(created.id).toBe('t1')
    } finally {
      await slow.close()
    }
  })

  it('reads Retry-After as seconds or as an HTTP date, on 429 and 503', async () => {
    const c = client({ getRetries: 0 })
    s.queue.push(
      s.json(429, { success: false, error: { code: 'rate_limited', message: 'x' } }, { 'Retry-After': '7' })
    )
    const e1 = await failure(() => c.tools.create({ name: 'T', type: 'SEARCH' }))
    expect(e1).toMatchObject({ kind: 'rate_limited', retryAfter: 7 })
    expect(e1.message).toMatch(/try again in 7 s/)
    const date = new Date(Date.now() + 30_000).toUTCString()
    s.queue.push({ status: 503, headers: { 'Retry-After': date }, body: '' })
    const e2 = await failure(() => c.tools.list())
    expect(e2.kind).toBe('server')
    expect(e2.retryAfter).toBeGreaterThanOrEqual(28)
    expect(e2.retryAfter).toBeLessThanOrEqual(31)
    expect(retryAfterSeconds('Wed, 21 Oct 2015 07:28:00 GMT')).toBe(0)
    expect(retryAfterSeconds('soon')).toBeUndefined()
  })
})

/** A second scripted server whose answers come after `ms`. */
async function startDelayed(ms: number) {
  const server = http.createServer((req, res) => {
    req.resume()
    req.on('end', () =>
      setTimeout(() => {
        res.writeHead(200, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify({ success: true, data: tool }))
      }, ms)
    )
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  const addr = server.address()
  const port = typeof addr === 'object' && addr ? addr.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r()))
  }
}
