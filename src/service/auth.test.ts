import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  AgentStrict,
  ApiTokenStrict,
  ErrorEnvelope,
  SignInResponseStrict,
  TIMESTAMP_RE,
  UserStrict
} from '../shared'
import { call, client, signUp, startTestServer, type TestServer } from '../../test/support/serviceKit'

let srv: TestServer
beforeAll(async () => {
  srv = await startTestServer()
})
afterAll(async () => {
  await srv.stop()
})

const agentBody = {
  name: 'Helper',
  type: 'REACT',
  llm: { provider: 'openai', model: 'gpt-4o' },
  hasMemory: true
}

function expectError(r: { status: number; json: unknown }, status: number, code: string) {
  expect(r.status).toBe(status)
  const env = ErrorEnvelope.parse(r.json)
  expect(env.error.code).toBe(code)
  expect(env.error.message.length).toBeGreaterThan(0)
  return env
}

describe('sign-up and sign-in', () => {
  it('signs up, returns a token and the public user, and rejects a taken e-mail with 409', async () => {
    const body = { email: 'Ann@Example.com', password: 'longenough1', name: 'Ann' }
    const r = await call(srv.base, 'POST', '/auth/sign-up', { body })
    expect(r.status).toBe(200)
    const data = SignInResponseStrict.parse(r.data)
    expect(data.user.email).toBe('Ann@Example.com')
    expect(data.user.name).toBe('Ann')
    expect(data.user.deletedAt).toBeNull()
    expect(data.user.createdAt).toMatch(TIMESTAMP_RE)
    expect(JSON.stringify(r.json)).not.toMatch(/password|scrypt/i)

    const again = await call(srv.base, 'POST', '/auth/sign-up', {
      body: { ...body, email: 'ann@example.COM' }
    })
    expectError(again, 409, 'conflict')
  })

  it('signs in with the right password (e-mail case-insensitive) and the token works', async () => {
    const u = await signUp(srv.base, 'Bob')
    const r = await call(srv.base, 'POST', '/auth/sign-in', {
      body: { email: u.email.toUpperCase(), password: u.password }
    })
    expect(r.status).toBe(200)
    const data = SignInResponseStrict.parse(r.data)
    expect(data.user.id).toBe(u.userId)
    expect(Object.keys(data.user).sort()).toEqual(Object.keys(UserStrict.shape).sort())
    const list = await client(srv.base, data.token).get('/agents')
    expect(list.status).toBe(200)
    expect(list.data).toEqual([])
  })

  it('refuses a wrong password and an unknown e-mail with 401', async () => {
    const u = await signUp(srv.base)
    expectError(
      await call(srv.base, 'POST', '/auth/sign-in', { body: { email: u.email, password: 'wrong-password' } }),
      401,
      'unauthorized'
    )
    expectError(
      await call(srv.base, 'POST', '/auth/sign-in', {
        body: { email: 'nobody@example.com', password: 'whatever1' }
      }),
      401,
      'unauthorized'
    )
  })

  it('validates sign-up fields', async () => {
    const r = await call(srv.base, 'POST', '/auth/sign-up', {
      body: { email: 'not-an-email', password: 'short', name: '' }
    })
    const env = expectError(r, 400, 'validation_failed')
    const fields = (env.error.details ?? []).map((d) => d.field).sort()
    expect(fields).toEqual(['email', 'name', 'password'])
  })
})

describe('credentials', () => {
  it('accepts the token in both header spellings', async () => {
    const u = await signUp(srv.base)
    const a = await call(srv.base, 'GET', '/agents', { token: u.token, header: 'Autorization' })
    const b = await call(srv.base, 'GET', '/agents', { token: u.token, header: 'Authorization' })
    expect(a.status).toBe(200)
    expect(b.status).toBe(200)
  })

  it('answers 401 for a missing, garbled, forged or non-Bearer credential', async () => {
    const u = await signUp(srv.base)
    expectError(await call(srv.base, 'GET', '/agents'), 401, 'unauthorized')
    expectError(await call(srv.base, 'GET', '/agents', { token: 'garbage' }), 401, 'unauthorized')
    expectError(await call(srv.base, 'GET', '/agents', { token: 's1.abc.def' }), 401, 'unauthorized')
    // Flip one character of the signature.
    const last = u.token.slice(-1) === 'A' ? 'B' : 'A'
    expectError(
      await call(srv.base, 'GET', '/agents', { token: u.token.slice(0, -1) + last }),
      401,
      'unauthorized'
    )
    expectError(
      await call(srv.base, 'GET', '/agents', { headers: { Authorization: `Basic ${u.token}` } }),
      401,
      'unauthorized'
    )
    // A failing credential on a body operation is still 401 (not 400), nothing is created.
    expectError(
      await call(srv.base, 'POST', '/agents', { token: 'garbage', body: agentBody }),
      401,
      'unauthorized'
    )
    expect((await u.api.get('/agents')).data).toEqual([])
  })

  it('rejects a session token after it expires', async () => {
    const short = await startTestServer({ tokenTtlSeconds: 1 })
    try {
      const u = await signUp(short.base)
      expect((await u.api.get('/agents')).status).toBe(200)
      await new Promise((r) => setTimeout(r, 1200))
      expectError(await u.api.get('/agents'), 401, 'unauthorized')
      // Signing in again gives a fresh, working token.
      const again = await call(short.base, 'POST', '/auth/sign-in', {
        body: { email: u.email, password: u.password }
      })
      expect(
        (await client(short.base, SignInResponseStrict.parse(again.data).token).get('/agents')).status
      ).toBe(200)
    } finally {
      await short.stop()
    }
  })

  it('a session token of another service instance (other secret) is refused', async () => {
    const other = await startTestServer()
    try {
      const u = await signUp(other.base)
      expectError(await call(srv.base, 'GET', '/agents', { token: u.token }), 401, 'unauthorized')
    } finally {
      await other.stop()
    }
  })
})

describe('API tokens', () => {
  it('creates, lists and gets tokens; a token is a bearer credential until deleted', async () => {
    const u = await signUp(srv.base, 'Tok')
    const created = await u.api.post('/api-tokens', { description: 'CI pipeline' })
    expect(created.status).toBe(200)
    const tok = ApiTokenStrict.parse(created.data)
    expect(tok.description).toBe('CI pipeline')
    expect(tok.userId).toBe(u.userId)
    expect(UserStrict.parse(tok.user).id).toBe(u.userId)
    expect(tok.token.length).toBeGreaterThanOrEqual(32)
    expect(JSON.stringify(tok.user)).not.toMatch(/password/i)

    const second = ApiTokenStrict.parse((await u.api.post('/api-tokens', { description: 'second' })).data)
    const list = (await u.api.get('/api-tokens')).data as unknown[]
    expect(list.map((t) => ApiTokenStrict.parse(t).id)).toEqual([second.id, tok.id])
    const one = ApiTokenStrict.parse((await u.api.get(`/api-tokens/${tok.id}`)).data)
    expect(one.token).toBe(tok.token)

    // The API token works with both header spellings.
    const viaToken = client(srv.base, tok.token)
    const made = await viaToken.post('/agents', agentBody)
    expect(made.status).toBe(200)
    expect(AgentStrict.parse(made.data).userId).toBe(u.userId)
    expect(
      (await call(srv.base, 'GET', '/agents', { token: tok.token, header: 'Authorization' })).status
    ).toBe(200)

    expect((await u.api.del(`/api-tokens/${tok.id}`)).json).toEqual({ success: true, data: null })
    expectError(await viaToken.get('/agents'), 401, 'unauthorized')
    expectError(await u.api.get(`/api-tokens/${tok.id}`), 404, 'not_found')
    expectError(await u.api.del(`/api-tokens/${tok.id}`), 404, 'not_found')
  })

  it("another user's token is 404 and validation applies", async () => {
    const a = await signUp(srv.base)
    const b = await signUp(srv.base)
    const tok = ApiTokenStrict.parse((await a.api.post('/api-tokens', { description: 'mine' })).data)
    expectError(await b.api.get(`/api-tokens/${tok.id}`), 404, 'not_found')
    expectError(await b.api.del(`/api-tokens/${tok.id}`), 404, 'not_found')
    expect((await b.api.get('/api-tokens')).data).toEqual([])
    const bad = expectError(await a.api.post('/api-tokens', { description: '' }), 400, 'validation_failed')
    expect(bad.error.details?.[0]?.field).toBe('description')
  })
})

describe('localSession', () => {
  it('creates the user once, issues working tokens, and the user cannot sign in with a password', async () => {
    const first = await srv.service.localSession({ email: 'local@desk.invalid', name: 'Local' })
    const second = await srv.service.localSession({ email: 'local@desk.invalid', name: 'Local' })
    expect(UserStrict.parse(first.user).id).toBe(second.user.id)
    expect(first.user.name).toBe('Local')
    const r = await client(srv.base, second.token).post('/agents', agentBody)
    expect(AgentStrict.parse(r.data).userId).toBe(first.user.id)
    expectError(
      await call(srv.base, 'POST', '/auth/sign-in', {
        body: { email: 'local@desk.invalid', password: '!unusable' }
      }),
      401,
      'unauthorized'
    )
  })
})
