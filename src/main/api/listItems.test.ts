/**
 * A list keeps each item that its schema reads as itself as the server sent it (no copy: the
 * embedded service's every item), and reads any other through the tolerant schema; an answer
 * whose every item read as itself is not checked again when the same bytes come back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { Agent } from '../../shared/agent'
import { ApiToken } from '../../shared/apiToken'
import { Document } from '../../shared/document'
import { asIsCheck } from '../../shared/fields'
import { AgentDocument } from '../../shared/links'
import { Prompt } from '../../shared/prompt'
import { Tag } from '../../shared/tag'
import { Tool } from '../../shared/tool'
import { startScriptedServer, type ScriptedServer } from '../../../test/servers/scriptedServer'
import { signUp, startTestServer, type TestServer } from '../../../test/support/serviceKit'
import { isChecked } from '../mask'
import { digestOf, readAsIs } from './answerDigest'
import { createApiClient, memoryCapabilityStore } from './client'

const llm = { provider: 'openai', model: 'gpt-4o' }
const stamp = '2026-01-01T00:00:00.000000+00:00'
/** An agent's fields besides its id, name and tags, as a server sends them. */
const fields = { type: 'REACT', llm, hasMemory: false, createdAt: stamp, updatedAt: stamp }

describe("the embedded service's list items read as themselves", () => {
  let srv: TestServer
  let me: Awaited<ReturnType<typeof signUp>>

  beforeAll(async () => {
    srv = await startTestServer()
    me = await signUp(srv.base, 'Items')
    const client = createApiClient({
      baseUrl: srv.service.url,
      getToken: () => me.token,
      capabilities: memoryCapabilityStore()
    })
    const userId = me.userId
    const tag = await client.tags.create({ name: 'ops', color: '#a1b', userId })
    const prompt = await client.prompts.create({ name: 'P', template: 'Do {task}' })
    const doc = await client.documents.create({
      name: 'D',
      type: 'PDF',
      url: 'https://example.com/d.pdf',
      from_page: 1,
      to_page: 2,
      metadata: { lang: 'en' }
    })
    await client.tools.create({ name: 'Calc', type: 'MATHENGINE_ALPHA', metadata: { x: [1] } })
    const agent = await client.agents.create({
      name: 'One',
      type: 'CHATVENDOR',
      llm,
      hasMemory: true,
      promptId: prompt.id,
      documentId: doc.id,
      tags: [tag.id]
    })
    await client.agents.create({ name: 'Two', type: 'REACT', llm, hasMemory: false })
    await client.agentDocuments.create({ agentId: agent.id, documentId: doc.id })
    await client.apiTokens.create({ description: 'CI' })
  })
  afterAll(async () => {
    await srv.stop()
  })

  const lists: [string, z.ZodType][] = [
    ['/agents', Agent],
    ['/tags', Tag],
    ['/documents', Document],
    ['/tools', Tool],
    ['/prompts', Prompt],
    ['/agent-documents', AgentDocument],
    ['/api-tokens', ApiToken]
  ]
  for (const [path, schema] of lists) {
    it(`GET ${path}`, async () => {
      const res = await fetch(`${srv.base}${path}`, { headers: { Authorization: `Bearer ${me.token}` } })
      const items = ((await res.json()) as { data: unknown[] }).data
      expect(items.length).toBeGreaterThan(0)
      const asIs = asIsCheck(schema)
      expect(items.filter((item) => asIs?.(item) !== true)).toEqual([])
      for (const item of items) expect(schema.parse(item)).toStrictEqual(item)
    })
  }
})

describe('a list keeps an item that reads as itself as it came, and reads the others', () => {
  let server: ScriptedServer
  beforeAll(async () => {
    server = await startScriptedServer()
  })
  afterAll(async () => server.close())

  it('keeps the server’s own key order on a well-formed item; fixes an odd one', async () => {
    const tag = { id: 't1', name: 'ops', color: '#AABBCC', userId: 'u1', createdAt: stamp, updatedAt: stamp }
    // Keys in an order of the server's own (zod would put `id` and the described fields first).
    const kept = {
      updatedAt: stamp,
      extra: { deep: [1, 2] },
      name: 'Kept',
      id: 'a1',
      type: 'REACT',
      llm,
      hasMemory: false,
      tags: [tag],
      createdAt: stamp
    }
    const odd = { ...kept, id: 7, name: 'Odd', tags: [tag, null, { ...tag, id: 't2', color: '#abc' }] }
    server.queue.push(server.json(200, { success: true, data: [kept, odd] }))
    const api = createApiClient({
      baseUrl: server.url,
      getToken: () => 'tok-123456789',
      capabilities: memoryCapabilityStore()
    })
    const [first, second] = await api.agents.list()
    expect(Object.keys(first ?? {})).toEqual(Object.keys(kept))
    expect(first).toStrictEqual(kept)
    expect(Object.keys(second ?? {})[0]).toBe('id')
    expect(second).toMatchObject({ id: '7', name: 'Odd', extra: { deep: [1, 2] } })
    expect(second?.tags?.map((t) => [t.id, t.color])).toEqual([
      ['t1', '#AABBCC'],
      ['t2', '#AABBCC']
    ])
  })

  it('does not mark a list’s items as checked for the token (lists reach the page as text, searched as text); masks an echo', async () => {
    const token = 'tok-123456789'
    const item = (id: string, name: string) => ({ ...fields, id, name, tags: [] })
    const api = createApiClient({
      baseUrl: server.url,
      getToken: () => token,
      capabilities: memoryCapabilityStore()
    })
    server.queue.push(server.json(200, { success: true, data: [item('a1', 'One'), item('a2', 'Two')] }))
    const clean = await api.agents.list()
    expect(clean.map((a) => isChecked(a, [token]))).toEqual([false, false])
    // An answer that echoes the token is masked.
    server.queue.push(
      server.json(200, { success: true, data: [item('a1', 'One'), item('a2', `echo ${token}`)] })
    )
    const echoed = await api.agents.list()
    expect(echoed[1]?.name).toBe('echo ••••')
    expect(echoed.map((a) => isChecked(a, [token]))).toEqual([false, false])
  })

  it('checks an answer whose every item read as itself once: the same bytes again are not checked', async () => {
    const item = (id: string, name: string) => ({ ...fields, id, name, tags: [] })
    const api = createApiClient({
      baseUrl: server.url,
      getToken: () => 'tok-123456789',
      capabilities: memoryCapabilityStore()
    })
    const list = async (body: unknown) => {
      server.queue.push(server.json(200, body))
      return { items: await api.agents.list(), digest: digestOf(Buffer.from(JSON.stringify(body))) }
    }
    const body = { success: true, data: [item('m1', 'One'), item('m2', 'Two')] }
    const first = await list(body)
    expect(readAsIs(Agent, first.digest)).toBe(true)
    expect(readAsIs(Tool, first.digest)).toBe(false)
    const again = await list(body)
    expect(again.items).toStrictEqual(first.items)
    expect(again.items[0]).not.toBe(first.items[0]) // parsed again, not checked again
    // An answer with an item zod reads (a numeric id) is checked each time.
    const odd = await list({ success: true, data: [item('m1', 'One'), { ...item('m3', 'Odd'), id: 9 }] })
    expect(odd.items[1]?.id).toBe('9')
    expect(readAsIs(Agent, odd.digest)).toBe(false)
    expect((await list({ success: true, data: [{ ...item('m3', 'Odd'), id: 9 }] })).items[0]?.id).toBe('9')
  })
})
