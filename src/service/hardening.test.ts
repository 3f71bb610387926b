/**
 * Issue 12, the embedded service: sign-out revokes, loopback Host/Origin guard, password routes
 * off, deep and oversized JSON, Idempotency-Key.
 */
import { request } from 'node:http'
import { join } from 'node:path'
import Database from 'libsql'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorEnvelope } from '../shared'
import {
  call,
  client,
  signUp,
  startTestServer,
  type Reply,
  type TestServer
} from '../../test/support/serviceKit'
import { openDatabase } from './db'
import { idempotencyStorage } from './idempotency'
import { MIGRATIONS } from './resources'
import { revocationStorage } from './revocation'

let srv: TestServer
beforeAll(async () => {
  srv = await startTestServer()
})
afterAll(async () => {
  await srv.stop()
})

function expectError(r: Reply, status: number, code: string) {
  expect(r.status).toBe(status)
  const env = ErrorEnvelope.parse(r.json)
  expect(env.error.code).toBe(code)
  return env
}

/** A raw request, so Host and Origin can be anything. */
function raw(port: number, headers: Record<string, string>, path = '/api/v1/agents', method = 'GET') {
  return new Promise<{ status: number; json: unknown }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers, setHost: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (text += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('sign-out (item 6)', () => {
  it('revokes the presented session token only; later use is 401, also after a restart', async () => {
    const u = await signUp(srv.base, 'Leaver')
    const second = await call(srv.base, 'POST', '/auth/sign-in', {
      body: { email: u.email, password: u.password }
    })
    const other = (second.data as { token: string }).token
    expect((await u.api.get('/agents')).status).toBe(200)

    const out = await call(srv.base, 'POST', '/auth/sign-out', { token: u.token, header: 'Authorization' })
    expect(out.status).toBe(200)
    expect(out.data).toEqual({ revoked: true })

    const after = await u.api.get('/agents')
    expect(expectError(after, 401, 'unauthorized').error.message).toMatch(/signed out/)
    expect((await call(srv.base, 'GET', '/agents', { token: other })).status).toBe(200)

    await srv.restart()
    expectError(await call(srv.base, 'GET', '/agents', { token: u.token }), 401, 'unauthorized')
    expect((await call(srv.base, 'GET', '/agents', { token: other })).status).toBe(200)
  })

  it('needs a credential, and leaves an API token alone (it is deleted, not signed out)', async () => {
    expectError(await call(srv.base, 'POST', '/auth/sign-out'), 401, 'unauthorized')
    const u = await signUp(srv.base, 'Tokens')
    const t = (await u.api.post('/api-tokens', { description: 'ci' })).data as { token: string }
    const r = await call(srv.base, 'POST', '/auth/sign-out', { token: t.token })
    expect(r.data).toEqual({ revoked: false })
    expect((await call(srv.base, 'GET', '/agents', { token: t.token })).status).toBe(200)
  })

  it('prunes revoked ids once their tokens have expired', () => {
    const db = openDatabase(join(srv.dataDir, 'service.db'), MIGRATIONS)
    try {
      let now = Date.now()
      const r = revocationStorage(db, () => now)
      r.revoke('gone-soon', Math.floor(now / 1000) + 60)
      r.revoke('stays', Math.floor(now / 1000) + 3600)
      expect(r.isRevoked('gone-soon')).toBe(true)
      now += 61_000
      expect(r.prune()).toBeGreaterThanOrEqual(1)
      expect(r.isRevoked('gone-soon')).toBe(false)
      expect(r.isRevoked('stays')).toBe(true)
    } finally {
      db.close()
    }
  })
})

describe('loopback guard (item 7)', () => {
  it('answers 403 to a foreign Host (DNS rebinding) and to any Origin, before anything runs', async () => {
    const port = srv.service.port
    const rebound = await raw(port, { host: `attacker.example:${port}` })
    expect(rebound.status).toBe(403)
    expect(ErrorEnvelope.parse(rebound.json).error.code).toBe('forbidden')
    expect((await raw(port, { host: `127.0.0.1:${port + 1}` })).status).toBe(403)
    expect([400, 403]).toContain((await raw(port, {})).status) // no Host at all (node itself answers 400)

    const page = await raw(
      port,
      { host: `127.0.0.1:${port}`, origin: 'https://attacker.example', 'content-type': 'application/json' },
      '/api/v1/auth/sign-up',
      'POST'
    )
    expect(page.status).toBe(403)
    expect((await raw(port, { host: `localhost:${port}`, origin: 'null' })).status).toBe(403)

    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`]) {
      const ok = await raw(port, { host })
      expect(ok.status, host).toBe(401) // reached the route: it wants a credential
    }
  })

  it('offers no HTTP sign-in or sign-up when passwordRoutes is off (sign-out stays)', async () => {
    const local = await startTestServer({ passwordRoutes: false })
    try {
      const body = { email: 'x@example.com', password: 'long enough 1', name: 'X' }
      expectError(await call(local.base, 'POST', '/auth/sign-up', { body }), 404, 'not_found')
      expectError(await call(local.base, 'POST', '/auth/sign-in', { body }), 404, 'not_found')
      const { token } = await local.service.localSession({ email: 'me@local', name: 'Me' })
      expect((await call(local.base, 'POST', '/auth/sign-out', { token })).data).toEqual({ revoked: true })
    } finally {
      await local.stop()
    }
  })
})

describe('limits (item 10)', () => {
  it('answers a 50,000-deep JSON body with a 400 envelope, not 500', async () => {
    const u = await signUp(srv.base, 'Deep')
    // `metadata` takes any JSON object: the depth reaches storage unless the body is refused.
    const deep = `{"name":"a","type":"TXT","url":"https://e.com/a","metadata":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}`
    const r = await call(srv.base, 'POST', '/documents', { token: u.token, raw: deep })
    expectError(r, 400, 'bad_request')
    expect(((await u.api.get('/documents')).data as unknown[]).length).toBe(0)
    const arrays = await call(srv.base, 'POST', '/auth/sign-in', { raw: `{"email":${'['.repeat(50_000)}` })
    expectError(arrays, 400, 'bad_request')
    // Brackets inside strings are not nesting.
    const fine = await u.api.post('/documents', {
      name: '[[[{{'.repeat(20),
      type: 'TXT',
      url: 'https://e.com/a'
    })
    expect(fine.status).toBe(200)
    expect(srv.logs.join('\n')).not.toMatch(/failed: RangeError/)
  })

  it('answers a body over the limit with a 413 envelope', async () => {
    const u = await signUp(srv.base, 'Big')
    const big = await u.api.post('/documents', { name: 'x'.repeat(1024 * 1024 + 10), type: 'TXT', url: 'x' })
    expectError(big, 413, 'payload_too_large')
  })
})

describe('Idempotency-Key (item 14)', () => {
  const agent = { name: 'Once', type: 'REACT', llm: { provider: 'p', model: 'm' } }

  it('replays the first answer to the same key and body, with one row only', async () => {
    const u = await signUp(srv.base, 'Idem')
    const headers = { 'Idempotency-Key': 'create-once-1' }
    const first = await u.api.post('/agents', agent, { headers })
    expect(first.status).toBe(200)
    const again = await u.api.post('/agents', { llm: agent.llm, type: 'REACT', name: 'Once' }, { headers })
    expect(again.status).toBe(200)
    expect(again.text).toBe(first.text)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(((await u.api.get('/agents')).data as unknown[]).length).toBe(1)

    await srv.restart()
    const api = client(srv.base, u.token)
    const later = await api.post('/agents', agent, { headers })
    expect(later.text).toBe(first.text)
    expect(((await api.get('/agents')).data as unknown[]).length).toBe(1)

    // PATCH and DELETE too.
    const id = (first.data as { id: string }).id
    const p1 = await api.patch(`/agents/${id}`, { name: 'Renamed' }, { headers: { 'Idempotency-Key': 'p' } })
    await api.patch(`/agents/${id}`, { name: 'Other' })
    const p2 = await api.patch(`/agents/${id}`, { name: 'Renamed' }, { headers: { 'Idempotency-Key': 'p' } })
    expect(p2.text).toBe(p1.text)
    const d1 = await api.del(`/agents/${id}`, { headers: { 'Idempotency-Key': 'd' } })
    const d2 = await api.del(`/agents/${id}`, { headers: { 'Idempotency-Key': 'd' } })
    expect([d1.status, d2.status]).toEqual([200, 200])
    expectError(await api.del(`/agents/${id}`), 404, 'not_found')
  })

  it('refuses the same key with a different body (422); keys are per user; bad keys are 400', async () => {
    const a = await signUp(srv.base, 'IdemA')
    const b = await signUp(srv.base, 'IdemB')
    const headers = { 'Idempotency-Key': 'shared-key' }
    expect((await a.api.post('/agents', agent, { headers })).status).toBe(200)
    const reused = await a.api.post('/agents', { ...agent, name: 'Twice' }, { headers })
    expectError(reused, 422, 'idempotency_key_reused')
    const otherPath = await a.api.post('/documents', { name: 'D', type: 'TXT', url: 'u' }, { headers })
    expectError(otherPath, 422, 'idempotency_key_reused')
    expect(((await a.api.get('/agents')).data as unknown[]).length).toBe(1)

    expect((await b.api.post('/agents', agent, { headers })).status).toBe(200)
    expect(((await b.api.get('/agents')).data as unknown[]).length).toBe(1)

    const bad = await a.api.post('/agents', agent, { headers: { 'Idempotency-Key': 'x'.repeat(256) } })
    expectError(bad, 400, 'bad_request')
    expect(((await a.api.get('/agents')).data as unknown[]).length).toBe(1)
  })

  it('does not keep failures: a refused request sent again runs again', async () => {
    const u = await signUp(srv.base, 'IdemFail')
    const headers = { 'Idempotency-Key': 'fails-first' }
    expectError(await u.api.post('/agents', { name: '' }, { headers }), 400, 'validation_failed')
    expectError(await u.api.post('/agents', { name: '' }, { headers }), 400, 'validation_failed')
    expect(((await u.api.get('/agents')).data as unknown[]).length).toBe(0)
  })

  it('forgets keys after 24 hours (pruned)', async () => {
    const file = join(srv.dataDir, 'service.db')
    const db = openDatabase(file, MIGRATIONS)
    try {
      let now = Date.now()
      const store = idempotencyStorage(db, () => now)
      const answer = (d: unknown) => ({ status: 200, body: JSON.stringify(d) })
      let runs = 0
      const run = () => ++runs
      await store.once('u1', 'k', 'f', run, answer)
      expect((await store.once('u1', 'k', 'f', run, answer)).replayed).toBe(true)
      now += 24 * 60 * 60 * 1000 + 1
      expect(store.prune()).toBeGreaterThanOrEqual(1)
      const check = new Database(file)
      const left = check.prepare("SELECT COUNT(*) AS n FROM idempotency_keys WHERE user_id = 'u1'").get()
      check.close()
      expect((left as { n: number }).n).toBe(0)
      expect((await store.once('u1', 'k', 'f', run, answer)).replayed).toBe(false)
      expect(runs).toBe(2)
    } finally {
      db.close()
    }
  })
})
