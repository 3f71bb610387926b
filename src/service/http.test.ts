import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AgentStrict, ErrorEnvelope } from '../shared'
import { call, signUp, startTestServer, type TestServer } from '../../test/support/serviceKit'

let srv: TestServer
let me: Awaited<ReturnType<typeof signUp>>
beforeAll(async () => {
  srv = await startTestServer({ maxBodyBytes: 64 * 1024 })
  me = await signUp(srv.base)
})
afterAll(async () => {
  await srv.stop()
})

const agentBody = { name: 'A', type: 'REACT', llm: { provider: 'p', model: 'm' } }

function expectError(r: { status: number; json: unknown; headers: Headers }, status: number, code: string) {
  expect(r.status).toBe(status)
  expect(r.headers.get('content-type')).toMatch(/^application\/json/)
  const env = ErrorEnvelope.parse(r.json)
  expect(env).toMatchObject({ success: false, data: null, error: { code } })
  expect(Array.isArray(env.error.details)).toBe(true)
  return env
}

async function agentCount() {
  return ((await me.api.get('/agents')).data as unknown[]).length
}

describe('routing', () => {
  it('unknown routes and paths outside /api/v1 are 404 envelopes', async () => {
    expectError(await me.api.get('/nothing-here'), 404, 'not_found')
    expectError(await me.api.get('/agents/x/y/z'), 404, 'not_found')
    expectError(await call(srv.service.url, 'GET', '/agents'), 404, 'not_found')
    expectError(await call(srv.service.url, 'GET', '/'), 404, 'not_found')
  })

  it('a known path with a wrong method is 405 with an Allow header', async () => {
    const r = await me.api.call('PUT', '/agents')
    expectError(r, 405, 'method_not_allowed')
    expect(r.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'POST'])
    const one = await me.api.call('POST', '/agents/some-id')
    expectError(one, 405, 'method_not_allowed')
    expect(one.headers.get('allow')?.split(', ').sort()).toEqual(['DELETE', 'GET', 'PATCH'])
    const signIn = await call(srv.base, 'GET', '/auth/sign-in')
    expectError(signIn, 405, 'method_not_allowed')
    expect(signIn.headers.get('allow')).toBe('POST')
  })

  it('success responses are JSON envelopes', async () => {
    const r = await me.api.post('/agents', agentBody)
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toMatch(/^application\/json/)
    expect(r.json).toMatchObject({ success: true })
    AgentStrict.parse(r.data)
  })
})

describe('bad bodies never crash and never store anything', () => {
  it('malformed JSON → 400', async () => {
    const before = await agentCount()
    const env = expectError(
      await me.api.call('POST', '/agents', { raw: '{"name": "A",' }),
      400,
      'bad_request'
    )
    expect(env.error.message).toMatch(/JSON/)
    expect(await agentCount()).toBe(before)
  })

  it('non-object bodies (array, string, number, null, empty) → 400', async () => {
    const before = await agentCount()
    for (const raw of ['[]', '"text"', '42', 'null', '', '   ']) {
      expectError(await me.api.call('POST', '/agents', { raw }), 400, 'bad_request')
    }
    expect(await agentCount()).toBe(before)
  })

  it('wrong or missing content type on a body request → 415', async () => {
    const before = await agentCount()
    const raw = JSON.stringify(agentBody)
    expectError(
      await me.api.call('POST', '/agents', { raw, contentType: 'text/plain' }),
      415,
      'unsupported_media_type'
    )
    expectError(
      await me.api.call('POST', '/agents', { raw, contentType: 'application/x-www-form-urlencoded' }),
      415,
      'unsupported_media_type'
    )
    expectError(
      await me.api.call('POST', '/agents', { raw, contentType: null }),
      415,
      'unsupported_media_type'
    )
    expect(await agentCount()).toBe(before)
    // A charset parameter is fine.
    const ok = await me.api.call('POST', '/agents', { raw, contentType: 'application/json; charset=utf-8' })
    expect(ok.status).toBe(200)
  })

  it('an oversized body → 413 (declared length and chunked), and the server keeps serving', async () => {
    const before = await agentCount()
    const big = JSON.stringify({ ...agentBody, name: 'x'.repeat(100 * 1024) })
    expectError(await me.api.call('POST', '/agents', { raw: big }), 413, 'payload_too_large')

    // Chunked: no Content-Length, the limit is enforced while reading.
    const url = new URL(`${srv.base}/agents`)
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', Autorization: `Bearer ${me.token}` }
        },
        (res) => {
          let body = ''
          res.setEncoding('utf8')
          res.on('data', (c: string) => (body += c))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
        }
      )
      req.on('error', reject)
      for (let i = 0; i < 10; i++) req.write(big.slice(i * 12_000, (i + 1) * 12_000))
      req.end(big.slice(120_000))
    })
    expect(chunked.status).toBe(413)
    expect(ErrorEnvelope.parse(JSON.parse(chunked.body)).error.code).toBe('payload_too_large')
    expect(await agentCount()).toBe(before)
  })

  it('wrong types, missing required fields and unknown enums → 400 with one detail per field', async () => {
    const env = expectError(
      await me.api.post('/agents', { name: '', type: 'ROBOT', llm: 'gpt', hasMemory: 1 }),
      400,
      'validation_failed'
    )
    expect(env.error.details?.map((d) => d.field).sort()).toEqual(['hasMemory', 'llm', 'name', 'type'])
    for (const d of env.error.details ?? []) expect(d.message.length).toBeGreaterThan(0)
    expectError(await me.api.post('/documents', {}), 400, 'validation_failed')
    expectError(await me.api.post('/tools', { name: 'x' }), 400, 'validation_failed')
    expectError(await me.api.post('/api-tokens', { description: 5 }), 400, 'validation_failed')
    expectError(await me.api.post('/agent-tools', { agentId: 1, toolId: null }), 400, 'validation_failed')
    expectError(
      await call(srv.base, 'POST', '/auth/sign-in', { body: { email: 'x@y.z' } }),
      400,
      'validation_failed'
    )
  })

  it('odd ids and query strings are handled as not found / validation, not crashes', async () => {
    expectError(await me.api.get('/agents/%E0%A4%A'), 404, 'not_found')
    expectError(await me.api.get(`/agents/${encodeURIComponent("' OR 1=1 --")}`), 404, 'not_found')
    expectError(await me.api.get('/agents?take=1&take=x'), 400, 'validation_failed')
  })
})
