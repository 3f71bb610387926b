import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { AppError } from '../../shared/errors'
import { startScriptedServer, type ScriptedServer } from '../../../test/servers/scriptedServer'
import {
  createApiClient,
  memoryCapabilityStore,
  normalizeBaseUrl,
  type ApiClientOptions,
  type CapabilityStore
} from './client'

async function failure(fn: () => Promise<unknown>): Promise<AppError> {
  try {
    await fn()
  } catch (e) {
    expect(e).toBeInstanceOf(AppError)
    return e as AppError
  }
  throw new Error('expected the call to fail')
}

function expectHuman(err: AppError) {
  expect(err.message.length).toBeGreaterThan(5)
  expect(err.message).not.toMatch(/[{}<>]|"detail"|"success"|DOCTYPE/)
}

const envelopeError = (code: string, message: string, details?: { field: string; message: string }[]) => ({
  success: false,
  data: null,
  error: { code, message, ...(details ? { details } : {}) }
})

describe('failure shapes, transport and capability rules (scripted server)', () => {
  let s: ScriptedServer
  let caps: CapabilityStore
  let unauthorized: AppError[]
  let token: string | null

  const client = (extra: Partial<ApiClientOptions> = {}) =>
    createApiClient({
      baseUrl: s.url,
      getToken: () => token,
      capabilities: caps,
      onUnauthorized: (e) => unauthorized.push(e),
      getRetries: 0,
      ...extra
    })

  beforeAll(async () => {
    s = await startScriptedServer()
  })
  beforeEach(() => {
    s.queue.length = 0
    s.requests.length = 0
    caps = memoryCapabilityStore()
    unauthorized = []
    token = 'tok-123'
  })
  afterAll(() => s.close())

  it('sends JSON with `Authorization` alone and the /api/v1 prefix', async () => {
    s.queue.push(s.json(200, { success: true, data: { id: 'a1', name: 'x' } }))
    await client().agents.update('a 1/2', { name: 'x' })
    const r = s.requests[0]
    expect(r?.method).toBe('PATCH')
    expect(r?.path).toBe('/api/v1/agents/a%201%2F2')
    expect(r?.headers['authorization']).toBe('Bearer tok-123')
    expect(r?.headers['autorization']).toBeUndefined()
    expect(r?.headers['content-type']).toBe('application/json')
    expect(JSON.parse(r?.body ?? '')).toEqual({ name: 'x' })
    expect(caps.get('agents.update')).toBe('offered')
  })

  it('no token → signed_out without a request', async () => {
    token = null
    const err = await failure(() => client().agents.list())
    expect(err.kind).toBe('signed_out')
    expect(s.requests).toHaveLength(0)
  })

  it('our envelope 400 with details → validation with fields and the server message', async () => {
    s.queue.push(
      s.json(
        400,
        envelopeError('validation_failed', 'Check the highlighted fields', [
          { field: 'llm.model', message: 'Enter a model' }
        ])
      )
    )
    const err = await failure(() =>
      client().agents.create({
        name: 'a',
        type: 'REACT',
        llm: { provider: 'p', model: 'm' },
        hasMemory: false
      })
    )
    expect(err).toMatchObject({
      kind: 'validation',
      status: 400,
      code: 'validation_failed',
      message: 'Check the highlighted fields'
    })
    expect(err.fields).toEqual([{ field: 'llm.model', message: 'Enter a model' }])
  })

  it('our envelope 401 → unauthorized and onUnauthorized', async () => {
    // Refused under both spellings: `Authorization` first, then once `Autorization` alone.
    const refusal = s.json(401, envelopeError('unauthorized', 'The session token is invalid or has expired'))
    s.queue.push(refusal, refusal)
    const err = await failure(() => client().tools.list())
    expect(s.requests.map((r) => [r.headers['authorization'], r.headers['autorization']])).toEqual([
      ['Bearer tok-123', undefined],
      [undefined, 'Bearer tok-123']
    ])
    expect(err.kind).toBe('unauthorized')
    expect(err.message).toBe(
      'The server ended your session (The session token is invalid or has expired): sign in again'
    )
    expect(unauthorized).toHaveLength(1)
  })

  it('403 {"detail":"Not authenticated"} → unauthorized and onUnauthorized', async () => {
    s.queue.push(s.json(403, { detail: 'Not authenticated' }), s.json(403, { detail: 'Not authenticated' }))
    const err = await failure(() => client().agents.list())
    expect(s.requests).toHaveLength(2)
    expect(err).toMatchObject({ kind: 'unauthorized', status: 403 })
    expectHuman(err)
    expect(unauthorized).toHaveLength(1)
  })

  it('403 that is not about the credential → forbidden, session kept', async () => {
    s.queue.push(s.json(403, envelopeError('forbidden', 'A tag can only be created for yourself')))
    const err = await failure(() => client().tags.create({ name: 't', color: '#fff', userId: 'other' }))
    expect(err).toMatchObject({ kind: 'forbidden', message: 'A tag can only be created for yourself' })
    expect(unauthorized).toHaveLength(0)
  })

  it('sign-in rejected (401 detail) → "Wrong e-mail or password" without onUnauthorized', async () => {
    s.queue.push(s.json(401, { detail: 'Invalid credentials' }))
    const err = await failure(() => client().signIn({ email: 'a@b.c', password: 'x' }))
    expect(err).toMatchObject({ kind: 'unauthorized', message: 'Wrong e-mail or password' })
    expect(unauthorized).toHaveLength(0)
    expect(s.requests[0]?.headers['authorization']).toBeUndefined()
  })

  it('FastAPI {"detail":"text"} 409 → conflict with the text', async () => {
    s.queue.push(s.json(409, { detail: 'A user with this e-mail already exists' }))
    const err = await failure(() => client().signUp({ email: 'a@b.c', password: 'password1', name: 'A' }))
    expect(err).toMatchObject({ kind: 'conflict', message: 'A user with this e-mail already exists' })
    expect(caps.get('session.signUp')).toBe('unknown')
  })

  it('FastAPI {"detail":[{loc,msg,type}]} → validation with fields', async () => {
    s.queue.push(
      s.json(422, {
        detail: [
          { loc: ['body', 'llm', 'model'], msg: 'field required', type: 'value_error.missing' },
          { loc: ['body', 'name'], msg: 'field required', type: 'value_error.missing' }
        ]
      })
    )
    const err = await failure(() =>
      client().agents.create({
        name: 'a',
        type: 'REACT',
        llm: { provider: 'p', model: 'm' },
        hasMemory: false
      })
    )
    expect(err.kind).toBe('validation')
    expect(err.fields?.map((f) => f.field)).toEqual(['llm.model', 'name'])
    expect(err.message).toBe('2 fields need attention: llm.model (field required); name (field required)')
  })

  it('HTML error pages, empty and non-JSON bodies → typed errors, never raw markup', async () => {
    s.queue.push({
      status: 503,
      headers: { 'Content-Type': 'text/html' },
      body: '<!DOCTYPE html><html><body>down</body></html>'
    })
    const html = await failure(() => client().agents.list())
    expect(html).toMatchObject({ kind: 'server', status: 503 })
    expect(html.message).toBe("The server's gateway answered with an error page (503 Service Unavailable)")

    s.queue.push({
      status: 200,
      headers: { 'Content-Type': 'text/html' },
      body: '<html><body>Welcome to nginx</body></html>'
    })
    const page = await failure(() => client().agents.list())
    expect(page.kind).toBe('protocol')
    expectHuman(page)

    s.queue.push({ status: 200, body: '' })
    const empty = await failure(() => client().agents.list())
    expect(empty).toMatchObject({ kind: 'protocol', message: 'The server sent an empty answer' })

    s.queue.push({ status: 200, headers: { 'Content-Type': 'text/plain' }, body: 'OK' })
    const text = await failure(() => client().agents.list())
    expect(text.kind).toBe('protocol')
    expectHuman(text)

    s.queue.push({ status: 500, headers: { 'Content-Type': 'text/plain' }, body: 'Internal Server Error' })
    const t500 = await failure(() => client().agents.list())
    expect(t500).toMatchObject({ kind: 'server', status: 500 })
    expectHuman(t500)

    s.queue.push(s.json(200, [{ id: 'a' }]))
    const bare = await failure(() => client().agents.list())
    expect(bare.kind).toBe('protocol')
    expectHuman(bare)
  })

  it('2xx with success:false → an error (with and without an error body)', async () => {
    s.queue.push(s.json(200, envelopeError('conflict', 'That name is taken')))
    const a = await failure(() => client().agents.get('x'))
    expect(a).toMatchObject({ kind: 'conflict', message: 'That name is taken' })
    s.queue.push(s.json(200, { success: false, data: null }))
    const b = await failure(() => client().agents.get('x'))
    expect(b).toMatchObject({ kind: 'server', message: 'The server reported that the request failed' })
  })

  it('status mapping: 429 (Retry-After), 413, 405 on a documented op, 5xx', async () => {
    s.queue.push(s.json(429, { detail: 'Too Many Requests' }, { 'Retry-After': '7' }))
    const r = await failure(() => client().agents.list())
    expect(r).toMatchObject({ kind: 'rate_limited', message: 'Too many requests: try again in 7 s' })
    s.queue.push({ status: 413, body: '' })
    expect((await failure(() => client().apiTokens.create({ description: 'x' }))).kind).toBe('too_large')
    s.queue.push(s.json(405, { detail: 'Method Not Allowed' }))
    const m = await failure(() => client().agents.delete('x'))
    expect(m.kind).toBe('not_offered')
    expectHuman(m)
    s.queue.push(s.json(500, envelopeError('internal', 'Something went wrong in the service')))
    expect((await failure(() => client().agents.list())).kind).toBe('server')
  })

  it('data null or {} where an object was due → not_found; lists drop unusable items', async () => {
    s.queue.push(s.json(200, { success: true, data: null }))
    expect(await failure(() => client().prompts.get('p'))).toMatchObject({
      kind: 'not_found',
      message: 'The prompt was not found'
    })
    s.queue.push(s.json(200, { success: true, data: {} }))
    expect((await failure(() => client().tools.get('t'))).kind).toBe('not_found')
    s.queue.push(
      s.json(200, {
        success: true,
        data: [{ id: 'a', name: 'A', hasMemory: 'yes' }, { name: 'no id' }, null, 7]
      })
    )
    const list = await client().agents.list()
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({ id: 'a', name: 'A' })
    expect(list[0]?.hasMemory).toBeUndefined()
    s.queue.push(s.json(200, { success: true, data: { items: [] } }))
    expect((await failure(() => client().agents.list())).kind).toBe('protocol')
  })

  it('item extras: our envelope 404 = item missing, FastAPI/HTML 404 or 405 = not offered', async () => {
    s.queue.push(s.json(404, envelopeError('not_found', 'Tag not found')))
    const missing = await failure(() => client().tags.get('t1'))
    expect(missing).toMatchObject({ kind: 'not_found', message: 'Tag not found' })
    expect(caps.get('tags.get')).toBe('unknown')

    s.queue.push(s.json(404, envelopeError('not_found', 'No such route')))
    expect((await failure(() => client().tags.delete('t1'))).kind).toBe('not_offered')
    expect(caps.get('tags.delete')).toBe('not_offered')

    s.queue.push(s.json(404, { detail: 'Not Found' }))
    expect((await failure(() => client().agentTools.get('l1'))).kind).toBe('not_offered')

    s.queue.push({ status: 404, headers: { 'Content-Type': 'text/html' }, body: '<h1>Not Found</h1>' })
    expect((await failure(() => client().apiTokens.delete('k'))).kind).toBe('not_offered')

    s.queue.push(s.json(404, { detail: 'Prompt not found' }))
    expect((await failure(() => client().prompts.delete('p'))).kind).toBe('not_found')
    expect(caps.get('prompts.delete')).toBe('unknown')

    // Collection extras: any 404 means not offered, even our envelope's.
    s.queue.push(s.json(404, envelopeError('not_found', 'Route not found')))
    expect((await failure(() => client().documents.list())).kind).toBe('not_offered')
    const before = s.requests.length
    expect((await failure(() => client().documents.list())).kind).toBe('not_offered')
    expect(s.requests.length).toBe(before)
  })

  it('link lists send filter[agentId] and expand, and drop other agents` links', async () => {
    s.queue.push(
      s.json(200, {
        success: true,
        data: [
          { id: 'l1', agentId: 'a1', documentId: 'd1' },
          { id: 'l2', agentId: 'a2', documentId: 'd2' }
        ]
      })
    )
    const links = await client().agentDocuments.list({ agentId: 'a1' })
    expect(links.map((l) => l.id)).toEqual(['l1'])
    const q = new URLSearchParams(s.requests[0]?.query ?? '')
    expect(q.get('filter[agentId]')).toBe('a1')
    expect(q.get('expand')).toBe('true')
    expect(caps.get('agentDocuments.list')).toBe('offered')
  })

  it('sign-up answers with or without a token', async () => {
    s.queue.push(
      s.json(200, { success: true, data: { token: 'T', user: { id: 'u1', email: 'a@b.c', name: 'A' } } })
    )
    expect(await client().signUp({ email: 'a@b.c', password: 'password1', name: 'A' })).toMatchObject({
      token: 'T',
      user: { id: 'u1' }
    })
    s.queue.push(s.json(200, { success: true, data: { id: 'u2', email: 'b@b.c', name: 'B' } }))
    const r = await client().signUp({ email: 'b@b.c', password: 'password1', name: 'B' })
    expect(r.token).toBeUndefined()
    expect(r.user?.id).toBe('u2')
  })

  it('size cap: declared Content-Length and streamed chunked bodies', async () => {
    s.queue.push(s.json(200, { success: true, data: [{ id: 'x'.repeat(500) }] }))
    expect((await failure(() => client({ maxResponseBytes: 100 }).agents.list())).kind).toBe('too_large')
    const chunk = Buffer.from(' '.repeat(1000))
    s.queue.push({
      status: 200,
      chunked: [Buffer.from('{"success":true,"data":['), chunk, chunk, chunk, Buffer.from(']}')]
    })
    const err = await failure(() => client({ maxResponseBytes: 2000 }).agents.list())
    expect(err.kind).toBe('too_large')
    expect(err.message).toBe("The server's answer is too large (over 2 KiB)")
  })

  it('a body that stalls after the headers → timeout', async () => {
    s.queue.push({ status: 200, stallAfter: '{"success":true,' })
    const err = await failure(() => client({ timeoutMs: 300 }).agents.list())
    expect(err.kind).toBe('timeout')
  })

  it('GET is retried after a dropped connection; POST is not', async () => {
    s.queue.push('destroy', s.json(200, { success: true, data: [] }))
    expect(await client({ getRetries: 2 }).agents.list()).toEqual([])
    expect(s.requests).toHaveLength(2)

    s.requests.length = 0
    s.queue.length = 0
    s.queue.push('destroy', s.json(200, { success: true, data: { id: 't1', description: 'x' } }))
    const err = await failure(() => client({ getRetries: 2 }).apiTokens.create({ description: 'x' }))
    expect(err.kind).toBe('network')
    expect(s.requests).toHaveLength(1)
  })

  it('unknown host → network "Cannot reach"', async () => {
    const c = createApiClient({
      baseUrl: 'http://no-such-host.invalid',
      getToken: () => 't',
      capabilities: caps,
      getRetries: 0
    })
    const err = await failure(() => c.agents.list())
    expect(err.kind).toBe('network')
    expect(err.message).toMatch(/^Cannot reach no-such-host\.invalid/)
  })

  it('normalises base URLs', () => {
    expect(normalizeBaseUrl(' https://ams.example.com/ ')).toBe('https://ams.example.com')
    expect(normalizeBaseUrl('https://ams.example.com/API/v1/')).toBe('https://ams.example.com')
    expect(normalizeBaseUrl('http://h:8080/prefix/api/v1')).toBe('http://h:8080/prefix')
    expect(() => normalizeBaseUrl('ams.example.com')).toThrow(AppError)
    expect(() => normalizeBaseUrl('ftp://x')).toThrow(/http/)
  })
})
