import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../shared/errors'
import { startService } from '../../service'
import {
  createApiClient,
  EXTRA_OPERATIONS,
  memoryCapabilityStore,
  type ApiClient,
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

type Service = Awaited<ReturnType<typeof startService>>
const llm = { provider: 'openai', model: 'gpt-4o' }

describe('client contract against the embedded service (every operation, extras offered)', () => {
  let service: Service
  let dataDir: string
  let token: string | null = null
  let caps: CapabilityStore
  let client: ApiClient
  let userId = ''
  const ended: AppError[] = []

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'agent-desk-client-'))
    service = await startService({ dataDir, port: 0, scryptCost: 16, logger: () => {} })
    caps = memoryCapabilityStore()
    client = createApiClient({
      baseUrl: service.url,
      getToken: () => token,
      capabilities: caps,
      onUnauthorized: (e) => ended.push(e)
    })
  })
  afterAll(async () => {
    await service.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('signs up, signs in, and refuses a wrong password without ending a session', async () => {
    const up = await client.signUp({ email: 'ada@example.com', password: 'correct-horse', name: 'Ada' })
    expect(up.user?.email).toBe('ada@example.com')
    expect(caps.get('session.signUp')).toBe('offered')
    const dup = await failure(() =>
      client.signUp({ email: 'ada@example.com', password: 'correct-horse', name: 'Ada' })
    )
    expect(dup.kind).toBe('conflict')

    const wrong = await failure(() => client.signIn({ email: 'ada@example.com', password: 'wrong-horse' }))
    expect(wrong).toMatchObject({ kind: 'unauthorized', message: 'Wrong e-mail or password' })
    expect(ended).toHaveLength(0)

    const inn = await client.signIn({ email: 'ada@example.com', password: 'correct-horse' })
    token = inn.token
    userId = inn.user?.id ?? ''
    expect(userId).toBe(up.user?.id)
  })

  it('documents: create, list, get, rename, delete', async () => {
    const doc = await client.documents.create({
      name: 'Handbook',
      type: 'PDF',
      url: 'https://example.com/h.pdf',
      from_page: 1,
      to_page: 3,
      metadata: { lang: 'en' }
    })
    expect(doc).toMatchObject({
      name: 'Handbook',
      type: 'PDF',
      from_page: 1,
      to_page: 3,
      metadata: { lang: 'en' }
    })
    expect((await client.documents.list()).map((d) => d.id)).toEqual([doc.id])
    expect(caps.get('documents.list')).toBe('offered')
    expect((await client.documents.get(doc.id)).name).toBe('Handbook')
    expect((await client.documents.update(doc.id, { name: 'Handbook v2' })).name).toBe('Handbook v2')
    expect(await client.documents.delete(doc.id)).toBeNull()
    const gone = await failure(() => client.documents.get(doc.id))
    expect(gone.kind).toBe('not_found')
    expect(gone.status).toBe(404)
  })

  it('tags: create (colour normalised), list, get, update, delete; a missing tag is not_found, not not_offered', async () => {
    const tag = await client.tags.create({ name: 'urgent', color: '#f0a', userId })
    expect(tag).toMatchObject({ name: 'urgent', color: '#FF00AA', userId })
    expect((await client.tags.list()).map((t) => t.id)).toContain(tag.id)
    expect((await client.tags.get(tag.id)).name).toBe('urgent')
    expect(await client.tags.update(tag.id, { color: '#000000' })).toMatchObject({
      color: '#000000',
      name: 'urgent'
    })
    expect(await client.tags.delete(tag.id)).toBeNull()
    const missing = await failure(() => client.tags.get(tag.id))
    expect(missing.kind).toBe('not_found')
    expect(caps.get('tags.get')).toBe('offered')

    const bad = await failure(() => client.tags.create({ name: 'x', color: 'red', userId }))
    expect(bad.kind).toBe('validation')
    expect(bad.fields?.map((f) => f.field)).toContain('color')
    const other = await failure(() =>
      client.tags.create({ name: 'x', color: '#fff', userId: 'someone-else' })
    )
    expect(other.kind).toBe('forbidden')
    expect(ended).toHaveLength(0)
  })

  it('prompts and tools: full CRUD', async () => {
    const p = await client.prompts.create({
      name: 'Greeter',
      template: 'Hello {name}',
      input_variables: ['name']
    })
    expect(p).toMatchObject({ name: 'Greeter', input_variables: ['name'] })
    expect((await client.prompts.list()).map((x) => x.id)).toContain(p.id)
    expect((await client.prompts.get(p.id)).template).toBe('Hello {name}')
    expect(
      (await client.prompts.update(p.id, { template: 'Hi {who}', input_variables: ['who'] })).input_variables
    ).toEqual(['who'])
    expect(await client.prompts.delete(p.id)).toBeNull()
    expect((await failure(() => client.prompts.get(p.id))).kind).toBe('not_found')

    const t = await client.tools.create({
      name: 'Search',
      type: 'SEARCH',
      description: 'web',
      metadata: { k: 1 }
    })
    expect(t).toMatchObject({ name: 'Search', type: 'SEARCH', metadata: { k: 1 } })
    expect((await client.tools.list()).map((x) => x.id)).toContain(t.id)
    expect((await client.tools.update(t.id, { description: 'the web' })).description).toBe('the web')
    expect((await client.tools.get(t.id)).description).toBe('the web')
    expect(await client.tools.delete(t.id)).toBeNull()
    expect((await failure(() => client.tools.get(t.id))).kind).toBe('not_found')
  })

  it('agents with tags, prompt and document; update; links filtered by agent; deletes', async () => {
    const tag = await client.tags.create({ name: 'ops', color: '#123456', userId })
    const prompt = await client.prompts.create({ name: 'P', template: 'Do {task}' })
    const doc = await client.documents.create({ name: 'D', type: 'TXT', url: 'https://example.com/d.txt' })
    const tool = await client.tools.create({ name: 'Calc', type: 'MATHENGINE_ALPHA' })

    const a1 = await client.agents.create({
      name: 'One',
      type: 'CHATVENDOR',
      llm,
      hasMemory: true,
      promptId: prompt.id,
      documentId: doc.id,
      tags: [{ id: tag.id, name: 'ops', color: '#123456' }]
    })
    expect(a1).toMatchObject({
      name: 'One',
      type: 'CHATVENDOR',
      llm,
      hasMemory: true,
      promptId: prompt.id,
      documentId: doc.id
    })
    expect(a1.tags?.map((t) => t.id)).toEqual([tag.id])
    const a2 = await client.agents.create({ name: 'Two', type: 'REACT', llm, hasMemory: false })
    expect((await client.agents.list()).map((a) => a.id)).toEqual([a2.id, a1.id])
    expect((await client.agents.get(a1.id)).tags?.map((t) => t.name)).toEqual(['ops'])
    const renamed = await client.agents.update(a2.id, { name: 'Two b', hasMemory: true })
    expect(renamed).toMatchObject({ name: 'Two b', hasMemory: true })

    const ad1 = await client.agentDocuments.create({ agentId: a1.id, documentId: doc.id })
    const ad2 = await client.agentDocuments.create({ agentId: a2.id, documentId: doc.id })
    expect(ad1).toMatchObject({ agentId: a1.id, documentId: doc.id })
    expect((await client.agentDocuments.get(ad1.id)).documentId).toBe(doc.id)
    expect((await client.agentDocuments.list({ agentId: a1.id })).map((l) => l.id)).toEqual([ad1.id])
    expect((await client.agentDocuments.list()).map((l) => l.id).sort()).toEqual([ad1.id, ad2.id].sort())
    const dupLink = await failure(() => client.agentDocuments.create({ agentId: a1.id, documentId: doc.id }))
    expect(dupLink.kind).toBe('conflict')

    const at1 = await client.agentTools.create({ agentId: a1.id, toolId: tool.id })
    expect(at1).toMatchObject({ agentId: a1.id, toolId: tool.id })
    expect(at1.id).toBeTruthy()
    await client.agentTools.create({ agentId: a2.id, toolId: tool.id })
    const forA1 = await client.agentTools.list({ agentId: a1.id })
    expect(forA1.map((l) => l.toolId)).toEqual([tool.id])
    expect(forA1[0]?.tool).toMatchObject({ id: tool.id })
    expect((await client.agentTools.get(at1.id ?? '')).agentId).toBe(a1.id)
    expect(await client.agentTools.delete(at1.id ?? '')).toBeNull()
    expect(await client.agentTools.list({ agentId: a1.id })).toEqual([])
    expect(await client.agentDocuments.delete(ad1.id)).toBeNull()
    expect((await failure(() => client.agentDocuments.get(ad1.id))).kind).toBe('not_found')

    const noAgent = await failure(() =>
      client.agentTools.create({ agentId: 'no-such-agent', toolId: tool.id })
    )
    expect(noAgent.kind).toBe('not_found')

    expect(await client.agents.delete(a1.id)).toBeNull()
    expect((await failure(() => client.agents.get(a1.id))).kind).toBe('not_found')
  })

  it('API tokens: create, list, get; usable as bearer; deleting it ends that session', async () => {
    const t = await client.apiTokens.create({ description: 'laptop' })
    expect(t.token).toBeTruthy()
    expect((await client.apiTokens.list()).map((x) => x.id)).toContain(t.id)
    expect((await client.apiTokens.get(t.id)).description).toBe('laptop')

    const viaTokenEnded: AppError[] = []
    const viaToken = createApiClient({
      baseUrl: `${service.url}/api/v1/`,
      getToken: () => t.token ?? null,
      capabilities: memoryCapabilityStore(),
      onUnauthorized: (e) => viaTokenEnded.push(e)
    })
    expect((await viaToken.agents.list()).map((a) => a.name)).toContain('Two b')
    expect(await client.apiTokens.delete(t.id)).toBeNull()
    const err = await failure(() => viaToken.agents.list())
    expect(err).toMatchObject({ kind: 'unauthorized', status: 401 })
    expect(viaTokenEnded).toHaveLength(1)
  })

  it('another user`s resources are not found', async () => {
    const mine = await client.documents.create({
      name: 'Private',
      type: 'TXT',
      url: 'https://example.com/p.txt'
    })
    const other = await service.localSession({ email: 'eve@example.com', name: 'Eve' })
    const eve = createApiClient({
      baseUrl: service.url,
      getToken: () => other.token,
      capabilities: memoryCapabilityStore()
    })
    expect((await failure(() => eve.documents.get(mine.id))).kind).toBe('not_found')
    expect((await failure(() => eve.documents.delete(mine.id))).kind).toBe('not_found')
    expect(await eve.documents.list()).toEqual([])
  })

  it('signs out on the server: the token is refused afterwards', async () => {
    // The embedded service's sign-out route (issue 12 item 6) revokes the token.
    await client.signOut()
    expect(caps.get('session.signOut')).toBe('offered')
    const after = await failure(() => client.agents.list())
    expect(after.kind).toBe('unauthorized')
  })

  it('every extra operation ended up offered', () => {
    for (const op of Object.keys(EXTRA_OPERATIONS)) expect(caps.get(op), op).toBe('offered')
  })
})
