/**
 * The client contract against a server that may offer ONLY what service-api.md shows.
 *
 * `npm test` runs it against the origin-like odd server (FastAPI failure shapes, one header
 * spelling, omitted fields). `npm run test:remote` runs the same file against an external server:
 * AMS_BASE_URL, AMS_EMAIL, AMS_PASSWORD and optionally AMS_PROMPT_ID. Operations the document
 * does not show are tried; where the server does not offer them the test says so and checks that
 * the client reports 'not_offered' instead of failing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../shared/errors'
import { Agent, Document, Tool } from '../../shared'
import {
  ORIGIN_DEFAULT_USER,
  startOriginLikeServer,
  type OriginLikeServer
} from '../../../test/servers/originLikeServer'
import { createApiClient, memoryCapabilityStore, type ApiClient } from './client'

const external = process.env.AMS_BASE_URL
const target = external ? 'external server' : 'origin-like server'

async function offeredOr<T>(op: string, fn: () => Promise<T>): Promise<T | null> {
  try {
    return await fn()
  } catch (e) {
    expect(e).toBeInstanceOf(AppError)
    expect((e as AppError).kind).toBe('not_offered')
    console.log(`[remote] ${op}: not offered by this server (${(e as AppError).message})`)
    return null
  }
}

describe(`client contract against the ${target}`, () => {
  let server: OriginLikeServer | null = null
  let client: ApiClient
  let token: string | null = null
  let userId = ''
  let promptId: string | undefined
  const caps = memoryCapabilityStore()
  const stamp = Date.now().toString(36)

  beforeAll(async () => {
    let baseUrl = external ?? ''
    if (!external) {
      server = await startOriginLikeServer({ header: 'Autorization' })
      baseUrl = server.url
      promptId = server.promptIds[0]
    } else {
      promptId = process.env.AMS_PROMPT_ID
    }
    client = createApiClient({ baseUrl, getToken: () => token, capabilities: caps })
    const signedIn = await client.signIn({
      email: external ? (process.env.AMS_EMAIL ?? '') : ORIGIN_DEFAULT_USER.email,
      password: external ? (process.env.AMS_PASSWORD ?? '') : ORIGIN_DEFAULT_USER.password
    })
    token = signedIn.token
    userId = signedIn.user?.id ?? ''
  })
  afterAll(async () => {
    await server?.close()
  })

  it('refuses a wrong password with a readable message', async () => {
    const other = createApiClient({
      baseUrl: client.baseUrl,
      getToken: () => null,
      capabilities: memoryCapabilityStore()
    })
    const err = await other
      .signIn({ email: 'nobody@example.com', password: 'wrong-password' })
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AppError)
    expect(['unauthorized', 'validation', 'not_found']).toContain((err as AppError).kind)
    expect((err as AppError).message).not.toMatch(/[{}<>]/)
  })

  it('documents: create, get, rename, delete', async () => {
    const doc = await client.documents.create({
      name: `Remote doc ${stamp}`,
      type: 'URL',
      url: 'https://example.com/a'
    })
    expect(Document.parse(doc).name).toBe(`Remote doc ${stamp}`)
    const got = await client.documents.get(doc.id)
    expect(got.id).toBe(doc.id)
    const renamed = await client.documents.update(doc.id, { name: `Renamed ${stamp}` })
    expect(renamed.name).toBe(`Renamed ${stamp}`)
    expect(await client.documents.delete(doc.id)).toBeNull()
    const gone = await client.documents.get(doc.id).catch((e: unknown) => e)
    expect((gone as AppError).kind).toBe('not_found')
  })

  it('API tokens: create, list, get', async () => {
    const created = await client.apiTokens.create({ description: `remote ${stamp}` })
    expect(created.token).toBeTruthy()
    const list = await client.apiTokens.list()
    expect(list.some((t) => t.id === created.id)).toBe(true)
    expect((await client.apiTokens.get(created.id)).description).toBe(`remote ${stamp}`)
    await offeredOr('apiTokens.delete', () => client.apiTokens.delete(created.id))
  })

  it('agents, tags and links: create, list, get, link, delete', async () => {
    const tag = await client.tags.create({ name: `t-${stamp}`, color: '#abc', userId })
    expect(tag.color).toBe('#AABBCC')
    const agent = await client.agents.create({
      name: `Remote agent ${stamp}`,
      type: 'REACT',
      llm: { provider: 'openai', model: 'gpt-4o-mini' },
      hasMemory: true,
      ...(promptId ? { promptId } : {}),
      tags: [{ id: tag.id, name: tag.name ?? '', color: tag.color ?? '' }]
    })
    expect(Agent.parse(agent).name).toBe(`Remote agent ${stamp}`)
    expect((await client.agents.list()).some((a) => a.id === agent.id)).toBe(true)
    expect((await client.agents.get(agent.id)).id).toBe(agent.id)

    const doc = await client.documents.create({
      name: `Linked ${stamp}`,
      type: 'TXT',
      url: 'https://example.com/t.txt'
    })
    const link = await client.agentDocuments.create({ agentId: agent.id, documentId: doc.id })
    expect(link.agentId).toBe(agent.id)
    expect((await client.agentDocuments.get(link.id)).documentId).toBe(doc.id)

    const tools = await client.tools.list()
    if (tools[0]) {
      const toolLink = await client.agentTools.create({ agentId: agent.id, toolId: tools[0].id })
      expect(toolLink.toolId).toBe(tools[0].id)
    } else {
      console.log('[remote] the server has no tools to link')
    }
    const links = await offeredOr('agentDocuments.list', () =>
      client.agentDocuments.list({ agentId: agent.id })
    )
    if (links) expect(links.map((l) => l.documentId)).toContain(doc.id)

    expect(await client.agents.delete(agent.id)).toBeNull()
    await client.documents.delete(doc.id)
  })

  it('tools: list, get, patch description and configuration', async () => {
    const tools = await client.tools.list()
    const first = tools[0]
    if (!first) {
      console.log('[remote] the server has no tools; nothing to patch')
      return
    }
    const tool = Tool.parse(await client.tools.get(first.id))
    const description = `patched ${stamp}`
    const patched = await client.tools.update(tool.id, { description, metadata: { region: 'eu' } })
    expect(patched.description).toBe(description)
  })

  it('prompts: open by id and patch', async () => {
    if (!promptId) {
      console.log('[remote] AMS_PROMPT_ID not set: the document has no way to list or create prompts')
      return
    }
    const prompt = await client.prompts.get(promptId)
    expect(prompt.id).toBe(promptId)
    const template = `Answer {question} for {user} (${stamp})`
    const patched = await client.prompts.update(promptId, { template, input_variables: ['question', 'user'] })
    expect(patched.template).toBe(template)
  })

  it('extras are either offered or reported as not offered', async () => {
    await offeredOr('documents.list', () => client.documents.list())
    await offeredOr('prompts.list', () => client.prompts.list())
    await offeredOr('tags.list', () => client.tags.list())
    await offeredOr('agentTools.list', () => client.agentTools.list())
    const all = caps.all()
    for (const op of ['documents.list', 'prompts.list', 'tags.list', 'agentTools.list']) {
      expect(['offered', 'not_offered']).toContain(all[op])
    }
    if (!external) expect(all['documents.list']).toBe('not_offered')
  })
})
