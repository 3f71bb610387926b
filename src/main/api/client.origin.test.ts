import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../shared/errors'
import {
  startOriginLikeServer,
  ORIGIN_DEFAULT_USER,
  type OriginLikeServer
} from '../../../test/servers/originLikeServer'
import {
  createApiClient,
  EXTRA_OPERATIONS,
  memoryCapabilityStore,
  type ApiClient,
  type ApiClientOptions,
  type CapabilityStore
} from './client'

/** Runs fn, returns the AppError it threw (fails the test if it threw anything else or nothing). */
async function failure(fn: () => Promise<unknown>): Promise<AppError> {
  try {
    await fn()
  } catch (e) {
    expect(e).toBeInstanceOf(AppError)
    return e as AppError
  }
  throw new Error('expected the call to fail')
}

/** A human message: no raw JSON or HTML. */
function expectHuman(err: AppError) {
  expect(err.message.length).toBeGreaterThan(5)
  expect(err.message).not.toMatch(/[{}<>]|"detail"|"success"/)
}

const llm = { provider: 'openai', model: 'gpt-4o' }

describe.each(['Autorization', 'Authorization'] as const)(
  'against an origin-like server reading only %s',
  (header) => {
    let server: OriginLikeServer
    let token: string | null = null
    let client: ApiClient
    let userId = ''

    beforeAll(async () => {
      server = await startOriginLikeServer({ header })
      client = createApiClient({
        baseUrl: server.url,
        getToken: () => token,
        capabilities: memoryCapabilityStore()
      })
    })
    afterAll(() => server.close())

    it('signs in and sends the token under the one spelling the server reads', async () => {
      const res = await client.signIn({
        email: ORIGIN_DEFAULT_USER.email,
        password: ORIGIN_DEFAULT_USER.password
      })
      expect(res.token).toMatch(/^eyJ/)
      expect(res.user?.email).toBe(ORIGIN_DEFAULT_USER.email)
      token = res.token
      userId = res.user?.id ?? ''
      expect(userId).not.toBe('')
      await client.tools.list()
      await client.tools.list()
      const last = server.requests.at(-1)
      const spelling = header.toLowerCase()
      const other = header === 'Authorization' ? 'autorization' : 'authorization'
      expect(last?.headers[spelling]).toBe(`Bearer ${token}`)
      expect(last?.headers[other]).toBeUndefined()
      expect(last?.headers['accept']).toBe('application/json')
      // No request ever carried both spellings.
      for (const r of server.requests)
        expect(r.headers['authorization'] && r.headers['autorization']).toBeFalsy()
    })

    it('documents: create (name filled from the request), get, rename, delete', async () => {
      const created = await client.documents.create({
        name: 'Q3 report',
        type: 'PDF',
        url: 'https://example.com/q3.pdf'
      })
      expect(created.id).toBeTruthy()
      expect(created.name).toBe('Q3 report') // the server omitted it; the client knows it
      expect(created.type).toBe('PDF')
      const post = server.requests.at(-1)
      expect(post?.headers['content-type']).toBe('application/json')
      const got = await client.documents.get(created.id)
      expect(got).toMatchObject({ id: created.id, name: 'Q3 report', url: 'https://example.com/q3.pdf' })
      const renamed = await client.documents.update(created.id, { name: 'Q3 final' })
      expect(renamed.name).toBe('Q3 final')
      expect((await client.documents.get(created.id)).name).toBe('Q3 final')
      expect(await client.documents.delete(created.id)).toBeNull()
      const err = await failure(() => client.documents.get(created.id))
      expect(err.kind).toBe('not_found')
      expect(err.message).toBe('The document was not found')
    })

    it('API tokens: create, list, get; an API token works as the bearer credential', async () => {
      const created = await client.apiTokens.create({ description: 'CI' })
      expect(created.description).toBe('CI')
      expect(created.token).toBeTruthy()
      const listed = await client.apiTokens.list()
      expect(listed.map((t) => t.id)).toContain(created.id)
      const got = await client.apiTokens.get(created.id)
      expect(got.token).toBe(created.token)

      const viaToken = createApiClient({
        baseUrl: server.url,
        getToken: () => created.token ?? null,
        capabilities: memoryCapabilityStore()
      })
      expect((await viaToken.tools.list()).length).toBe(3)
    })

    it('agents: create with tags, list and get (no tags), delete', async () => {
      const tag = await client.tags.create({ name: 'support', color: '#0e8a16', userId })
      expect(tag).toMatchObject({ name: 'support', color: '#0E8A16' })
      const promptId = server.promptIds[0] ?? ''
      const created = await client.agents.create({
        name: 'Helper',
        type: 'REACT',
        llm,
        hasMemory: true,
        promptId,
        tags: [{ id: tag.id, name: 'support', color: '#0E8A16' }]
      })
      expect(created).toMatchObject({ name: 'Helper', type: 'REACT', hasMemory: true, llm })
      expect(created.tags?.map((t) => t.id)).toEqual([tag.id])
      expect(created.documentId).toBeUndefined()

      const listed = await client.agents.list()
      expect(listed.map((a) => a.id)).toContain(created.id)
      const got = await client.agents.get(created.id)
      expect(got).toMatchObject({ id: created.id, name: 'Helper', llm })
      expect(got.tags).toBeUndefined()
      expect(got.document).toEqual({})

      expect(await client.agents.delete(created.id)).toBeNull()
      expect((await failure(() => client.agents.get(created.id))).kind).toBe('not_found')
    })

    it('tools: list (id, name, type only), get, patch', async () => {
      const tools = await client.tools.list()
      expect(tools).toHaveLength(3)
      expect(Object.keys(tools[0] ?? {}).sort()).toEqual(['id', 'name', 'type'])
      const id = server.toolIds[1] ?? ''
      const got = await client.tools.get(id)
      expect(got).toMatchObject({ id, name: 'Calculator', type: 'MATHENGINE_ALPHA', description: 'Computes' })
      const patched = await client.tools.update(id, { description: 'Does sums', metadata: { precision: 4 } })
      expect(patched.description).toBe('Does sums')
      expect((await client.tools.get(id)).description).toBe('Does sums')
    })

    it('prompts: get and patch by id', async () => {
      const id = server.promptIds[1] ?? ''
      const got = await client.prompts.get(id)
      expect(got).toMatchObject({ name: 'Summary', input_variables: ['text', 'count'] })
      const patched = await client.prompts.update(id, {
        template: 'Shorten {text}.',
        input_variables: ['text']
      })
      expect(patched).toMatchObject({ template: 'Shorten {text}.', input_variables: ['text'] })
      expect((await failure(() => client.prompts.get('missing-prompt'))).kind).toBe('not_found')
    })

    it('links: agent-document create and get; agent-tool create without an id', async () => {
      const agent = await client.agents.create({ name: 'Linker', type: 'CHATVENDOR', llm, hasMemory: false })
      const doc = await client.documents.create({
        name: 'Notes',
        type: 'TXT',
        url: 'https://example.com/n.txt'
      })
      const link = await client.agentDocuments.create({ agentId: agent.id, documentId: doc.id })
      expect(link).toMatchObject({ agentId: agent.id, documentId: doc.id })
      const got = await client.agentDocuments.get(link.id)
      expect(got).toMatchObject({ id: link.id, agentId: agent.id, documentId: doc.id })
      const toolLink = await client.agentTools.create({ agentId: agent.id, toolId: server.toolIds[0] ?? '' })
      expect(toolLink.id).toBeUndefined()
      expect(toolLink).toMatchObject({ agentId: agent.id, toolId: server.toolIds[0] })
    })
  }
)

describe('origin-like failures, capabilities and limits', () => {
  let server: OriginLikeServer
  let token: string | null = null
  let caps: CapabilityStore
  let unauthorized: AppError[]
  let userId = ''

  const make = (extra: Partial<ApiClientOptions> = {}) =>
    createApiClient({
      baseUrl: server.url,
      getToken: () => token,
      capabilities: caps,
      onUnauthorized: (e) => unauthorized.push(e),
      ...extra
    })

  beforeAll(async () => {
    server = await startOriginLikeServer()
    caps = memoryCapabilityStore()
    unauthorized = []
    const res = await make().signIn({
      email: ORIGIN_DEFAULT_USER.email,
      password: ORIGIN_DEFAULT_USER.password
    })
    token = res.token
    userId = res.user?.id ?? ''
  })
  afterEach(() => server.setMode('normal'))
  afterAll(() => server.close())

  it('accepts a base URL typed with /api/v1/', async () => {
    const c = make({ baseUrl: `${server.url}/api/v1/` })
    expect(c.baseUrl).toBe(server.url)
    expect(await c.tools.list()).toHaveLength(3)
  })

  it('wrong password: unauthorized "Wrong e-mail or password", session hook not fired', async () => {
    unauthorized = []
    const err = await failure(() => make().signIn({ email: ORIGIN_DEFAULT_USER.email, password: 'nope' }))
    expect(err.kind).toBe('unauthorized')
    expect(err.message).toBe('Wrong e-mail or password')
    expect(unauthorized).toHaveLength(0)
  })

  it('403 "Invalid token or expired token." ends the session (onUnauthorized)', async () => {
    unauthorized = []
    const c = make({ getToken: () => 'forged-token' })
    const err = await failure(() => c.agents.list())
    expect(err.kind).toBe('unauthorized')
    expect(err.status).toBe(403)
    expectHuman(err)
    expect(unauthorized).toHaveLength(1)
    expect(unauthorized[0]?.kind).toBe('unauthorized')
  })

  it('422 FastAPI validation → validation with fields (loc without "body")', async () => {
    const err = await failure(() => make().tags.create({ name: 'x', color: 'red', userId }))
    expect(err.kind).toBe('validation')
    expect(err.status).toBe(422)
    expect(err.fields?.[0]?.field).toBe('color')
    expect(err.message).toMatch(/^color: /)
    expectHuman(err)
  })

  it('a proxy HTML 502 page → server error with a human message', async () => {
    server.setMode('html502')
    const err = await failure(() => make().agents.list())
    expect(err.kind).toBe('server')
    expect(err.status).toBe(502)
    expect(err.message).toBe("The server's gateway answered with an error page (502 Bad Gateway)")
  })

  it('an empty 500 → server error', async () => {
    server.setMode('empty500')
    const err = await failure(() => make().tools.get(server.toolIds[0] ?? ''))
    expect(err.kind).toBe('server')
    expect(err.status).toBe(500)
    expectHuman(err)
  })

  it('a hanging server → timeout', async () => {
    server.setMode('hang')
    const started = Date.now()
    const err = await failure(() => make({ timeoutMs: 300 }).agents.list())
    expect(err.kind).toBe('timeout')
    expect(err.message).toMatch(/did not answer within 300 ms$/)
    expect(Date.now() - started).toBeLessThan(3000)
    expectHuman(err)
  })

  it('a server dropping connections → network (after GET retries)', async () => {
    server.setMode('down')
    const before = server.requests.length
    const err = await failure(() => make({ getRetries: 2 }).agents.list())
    expect(err.kind).toBe('network')
    expect(err.message).toContain('Cannot reach 127.0.0.1')
    // Connections are dropped at accept time, so the server may not see them as requests.
    expect(server.requests.length - before).toBeLessThanOrEqual(3)
  })

  it('a response larger than maxResponseBytes → too_large', async () => {
    const err = await failure(() => make({ maxResponseBytes: 64 }).tools.list())
    expect(err.kind).toBe('too_large')
    expectHuman(err)
    expect(await make().tools.list()).toHaveLength(3)
  })

  it('marks every extra operation not_offered, then answers without a request', async () => {
    const c = make()
    const calls: Record<keyof typeof EXTRA_OPERATIONS, () => Promise<unknown>> = {
      'documents.list': () => c.documents.list(),
      'prompts.list': () => c.prompts.list(),
      'prompts.create': () => c.prompts.create({ name: 'p', template: 't' }),
      'prompts.delete': () => c.prompts.delete(server.promptIds[0] ?? ''),
      'tags.list': () => c.tags.list(),
      'tags.get': () => c.tags.get('some-tag'),
      'tags.update': () => c.tags.update('some-tag', { name: 'n' }),
      'tags.delete': () => c.tags.delete('some-tag'),
      'apiTokens.delete': () => c.apiTokens.delete('some-token'),
      'tools.create': () => c.tools.create({ name: 't', type: 'SEARCH' }),
      'tools.delete': () => c.tools.delete(server.toolIds[0] ?? ''),
      'agents.update': () => c.agents.update('some-agent', { name: 'n' }),
      'agentDocuments.list': () => c.agentDocuments.list({ agentId: 'a' }),
      'agentDocuments.delete': () => c.agentDocuments.delete('some-link'),
      'agentTools.list': () => c.agentTools.list(),
      'agentTools.get': () => c.agentTools.get('some-link'),
      'agentTools.delete': () => c.agentTools.delete('some-link'),
      'session.signUp': () => c.signUp({ email: 'new@example.com', password: 'password-1', name: 'New' }),
      'session.signOut': () => c.signOut()
    }
    for (const [op, call] of Object.entries(calls)) {
      const before = server.requests.length
      const first = await failure(call)
      expect(first.kind, op).toBe('not_offered')
      expect(first.message).toMatch(/^This server does not offer /)
      expect(server.requests.length - before, op).toBe(1)
      expect(caps.get(op), op).toBe('not_offered')
      const second = await failure(call)
      expect(second.kind, op).toBe('not_offered')
      expect(server.requests.length - before, `${op} second call`).toBe(1)
    }
    expect(Object.keys(caps.all()).sort()).toEqual(Object.keys(EXTRA_OPERATIONS).sort())
  })

  it('a missing item on the document`s operations is not_found, not not_offered', async () => {
    const err = await failure(() => make().agentDocuments.get('nope'))
    expect(err.kind).toBe('not_found')
    expect(err.message).toBe('The agent-document link was not found')
  })

  it('an unreachable port → network "Cannot reach"', async () => {
    const closed = await startOriginLikeServer()
    const url = closed.url
    await closed.close()
    const c = createApiClient({
      baseUrl: url,
      getToken: () => 't',
      capabilities: memoryCapabilityStore(),
      getRetries: 0
    })
    const err = await failure(() => c.agents.list())
    expect(err.kind).toBe('network')
    expect(err.message).toBe(`Cannot reach ${new URL(url).host} (connection refused)`)
  })
})
