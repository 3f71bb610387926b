import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  AgentDocumentStrict,
  AgentStrict,
  AgentToolStrict,
  DocumentStrict,
  ErrorEnvelope,
  TIMESTAMP_RE,
  ToolStrict,
  UserStrict
} from '../shared'
import { signUp, startTestServer, type Client, type TestServer } from '../../test/support/serviceKit'

let srv: TestServer
beforeAll(async () => {
  srv = await startTestServer()
})
afterAll(async () => {
  await srv.stop()
})

function expectError(r: { status: number; json: unknown }, status: number, code: string) {
  expect(r.status).toBe(status)
  const env = ErrorEnvelope.parse(r.json)
  expect(env.error.code).toBe(code)
  return env
}

async function fixture(api: Client, label: string) {
  const agent = AgentStrict.parse(
    (await api.post('/agents', { name: `agent ${label}`, type: 'REACT', llm: { provider: 'p', model: 'm' } }))
      .data
  )
  const doc = DocumentStrict.parse(
    (await api.post('/documents', { name: `doc ${label}`, type: 'URL', url: 'https://example.com/' })).data
  )
  const tool = ToolStrict.parse((await api.post('/tools', { name: `tool ${label}`, type: 'SEARCH' })).data)
  return { agent, doc, tool }
}

describe('agent documents', () => {
  it('links, gets (embedded objects), lists with filter/expand, refuses duplicates, deletes', async () => {
    const u = await signUp(srv.base)
    const a = await fixture(u.api, 'a')
    const b = await fixture(u.api, 'b')
    const c = await u.api.post('/agent-documents', { agentId: a.agent.id, documentId: a.doc.id })
    expect(c.status).toBe(200)
    const link = AgentDocumentStrict.parse(c.data)
    expect(link).toMatchObject({ agentId: a.agent.id, documentId: a.doc.id, userId: u.userId })
    expect(link.createdAt).toMatch(TIMESTAMP_RE)
    expect(UserStrict.parse(link.user).id).toBe(u.userId)
    expect(AgentStrict.parse(link.agent).id).toBe(a.agent.id)
    expect(DocumentStrict.parse(link.document).id).toBe(a.doc.id)

    const got = AgentDocumentStrict.parse((await u.api.get(`/agent-documents/${link.id}`)).data)
    expect(got).toEqual(link)

    const dup = expectError(
      await u.api.post('/agent-documents', { agentId: a.agent.id, documentId: a.doc.id }),
      409,
      'conflict'
    )
    expect(dup.error.code).toBe('conflict')
    const other = AgentDocumentStrict.parse(
      (await u.api.post('/agent-documents', { agentId: b.agent.id, documentId: a.doc.id })).data
    )

    const all = ((await u.api.get('/agent-documents')).data as unknown[]).map((x) =>
      AgentDocumentStrict.parse(x)
    )
    expect(all.map((x) => x.id)).toEqual([other.id, link.id])
    expect(all[0]!.agent).toEqual({})
    const filtered = (
      (await u.api.get(`/agent-documents?filter[agentId]=${a.agent.id}&expand=true`)).data as unknown[]
    ).map((x) => AgentDocumentStrict.parse(x))
    expect(filtered.map((x) => x.id)).toEqual([link.id])
    expect(AgentStrict.parse(filtered[0]!.agent).name).toBe('agent a')
    expect(DocumentStrict.parse(filtered[0]!.document).name).toBe('doc a')
    // The bracket may arrive percent-encoded too.
    const encoded = (
      await u.api.get(`/agent-documents?${encodeURIComponent('filter[agentId]')}=${b.agent.id}`)
    ).data as unknown[]
    expect(encoded.length).toBe(1)

    expect((await u.api.del(`/agent-documents/${link.id}`)).json).toEqual({ success: true, data: null })
    expectError(await u.api.get(`/agent-documents/${link.id}`), 404, 'not_found')
    // Both ends still exist.
    expect((await u.api.get(`/agents/${a.agent.id}`)).status).toBe(200)
    expect((await u.api.get(`/documents/${a.doc.id}`)).status).toBe(200)
  })

  it('validates bodies and refuses linking or seeing another user’s resources (404)', async () => {
    const u = await signUp(srv.base)
    const v = await signUp(srv.base)
    const mine = await fixture(u.api, 'u')
    const theirs = await fixture(v.api, 'v')
    const env = expectError(
      await u.api.post('/agent-documents', { agentId: mine.agent.id }),
      400,
      'validation_failed'
    )
    expect(env.error.details?.map((d) => d.field)).toEqual(['documentId'])
    expectError(
      await u.api.post('/agent-documents', { agentId: mine.agent.id, documentId: theirs.doc.id }),
      404,
      'not_found'
    )
    expectError(
      await u.api.post('/agent-documents', { agentId: theirs.agent.id, documentId: mine.doc.id }),
      404,
      'not_found'
    )
    const link = AgentDocumentStrict.parse(
      (await v.api.post('/agent-documents', { agentId: theirs.agent.id, documentId: theirs.doc.id })).data
    )
    expectError(await u.api.get(`/agent-documents/${link.id}`), 404, 'not_found')
    expectError(await u.api.del(`/agent-documents/${link.id}`), 404, 'not_found')
    expect((await u.api.get(`/agent-documents?filter[agentId]=${theirs.agent.id}`)).data).toEqual([])
    expect((await u.api.get('/agent-documents?expand=maybe')).status).toBe(400)
  })
})

describe('agent tools', () => {
  it('links, gets, lists with filter/expand, refuses duplicates and foreign tools, deletes', async () => {
    const u = await signUp(srv.base)
    const v = await signUp(srv.base)
    const a = await fixture(u.api, 'a')
    const b = await fixture(u.api, 'b')
    const theirs = await fixture(v.api, 'v')
    const c = await u.api.post('/agent-tools', { agentId: a.agent.id, toolId: a.tool.id })
    expect(c.status).toBe(200)
    const link = AgentToolStrict.parse(c.data)
    expect(link).toMatchObject({ agentId: a.agent.id, toolId: a.tool.id, userId: u.userId })
    expect(ToolStrict.parse(link.tool).id).toBe(a.tool.id)
    expect(AgentStrict.parse(link.agent).id).toBe(a.agent.id)
    expect(UserStrict.parse(link.user).id).toBe(u.userId)
    expect(AgentToolStrict.parse((await u.api.get(`/agent-tools/${link.id}`)).data)).toEqual(link)

    expectError(await u.api.post('/agent-tools', { agentId: a.agent.id, toolId: a.tool.id }), 409, 'conflict')
    expectError(
      await u.api.post('/agent-tools', { agentId: a.agent.id, toolId: theirs.tool.id }),
      404,
      'not_found'
    )
    const second = AgentToolStrict.parse(
      (await u.api.post('/agent-tools', { agentId: b.agent.id, toolId: a.tool.id })).data
    )

    const list = ((await u.api.get('/agent-tools')).data as unknown[]).map((x) => AgentToolStrict.parse(x))
    expect(list.map((x) => x.id)).toEqual([second.id, link.id])
    const filtered = (
      (await u.api.get(`/agent-tools?filter[agentId]=${b.agent.id}&expand=true`)).data as unknown[]
    ).map((x) => AgentToolStrict.parse(x))
    expect(filtered.map((x) => x.id)).toEqual([second.id])
    expect(ToolStrict.parse(filtered[0]!.tool).name).toBe('tool a')
    expect(((await u.api.get('/agent-tools?take=1')).data as unknown[]).length).toBe(1)

    expectError(await v.api.get(`/agent-tools/${link.id}`), 404, 'not_found')
    expectError(await v.api.del(`/agent-tools/${link.id}`), 404, 'not_found')
    expect((await u.api.del(`/agent-tools/${link.id}`)).json).toEqual({ success: true, data: null })
    expectError(await u.api.get(`/agent-tools/${link.id}`), 404, 'not_found')
  })
})

describe('cascades', () => {
  it('deleting an agent, a document or a tool removes their links', async () => {
    const u = await signUp(srv.base)
    const a = await fixture(u.api, 'a')
    const b = await fixture(u.api, 'b')
    const ad1 = AgentDocumentStrict.parse(
      (await u.api.post('/agent-documents', { agentId: a.agent.id, documentId: a.doc.id })).data
    )
    const ad2 = AgentDocumentStrict.parse(
      (await u.api.post('/agent-documents', { agentId: b.agent.id, documentId: b.doc.id })).data
    )
    const at1 = AgentToolStrict.parse(
      (await u.api.post('/agent-tools', { agentId: a.agent.id, toolId: a.tool.id })).data
    )
    const at2 = AgentToolStrict.parse(
      (await u.api.post('/agent-tools', { agentId: b.agent.id, toolId: b.tool.id })).data
    )

    await u.api.del(`/agents/${a.agent.id}`)
    expectError(await u.api.get(`/agent-documents/${ad1.id}`), 404, 'not_found')
    expectError(await u.api.get(`/agent-tools/${at1.id}`), 404, 'not_found')
    expect((await u.api.get(`/documents/${a.doc.id}`)).status).toBe(200)
    expect((await u.api.get(`/tools/${a.tool.id}`)).status).toBe(200)

    await u.api.del(`/documents/${b.doc.id}`)
    expectError(await u.api.get(`/agent-documents/${ad2.id}`), 404, 'not_found')
    expect((await u.api.get(`/agent-tools/${at2.id}`)).status).toBe(200)
    await u.api.del(`/tools/${b.tool.id}`)
    expectError(await u.api.get(`/agent-tools/${at2.id}`), 404, 'not_found')
    expect((await u.api.get('/agent-documents')).data).toEqual([])
    expect((await u.api.get('/agent-tools')).data).toEqual([])
    expect((await u.api.get(`/agents/${b.agent.id}`)).status).toBe(200)
  })
})
