/**
 * A list keeps each item that its schema reads as itself as the server sent it (no copy: the
 * embedded service's every item), and reads any other through the tolerant schema.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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
import { startService } from '../../service'
import { startScriptedServer, type ScriptedServer } from '../../../test/servers/scriptedServer'
import { isChecked } from '../mask'
import { createApiClient, memoryCapabilityStore } from './client'

const llm = { provider: 'openai', model: 'gpt-4o' }
const stamp = '2026-01-01T00:00:00.000000+00:00'

describe("the embedded service's list items read as themselves", () => {
  let service: Awaited<ReturnType<typeof startService>>
  let dataDir: string
  let token = ''

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'agent-desk-list-items-'))
    service = await startService({ dataDir, port: 0, scryptCost: 16, logger: () => {} })
    const setup = createApiClient({
      baseUrl: service.url,
      getToken: () => null,
      capabilities: memoryCapabilityStore()
    })
    await setup.signUp({ email: 'items@example.com', password: 'correct-horse', name: 'I' })
    const session = await setup.signIn({ email: 'items@example.com', password: 'correct-horse' })
    token = session.token
    const client = createApiClient({
      baseUrl: service.url,
      getToken: () => token,
      capabilities: memoryCapabilityStore()
    })
    const userId = session.user?.id ?? ''
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
    await service.close()
    rmSync(dataDir, { recursive: true, force: true })
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
      const res = await fetch(`${service.url}/api/v1${path}`, {
        headers: { Authorization: `Bearer ${token}` }
      })
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

  it('marks the items it keeps as checked for the token when the answer could not hold it', async () => {
    const token = 'tok-123456789'
    const item = (id: string, name: string) => ({
      id,
      name,
      type: 'REACT',
      llm,
      hasMemory: false,
      tags: [],
      createdAt: stamp,
      updatedAt: stamp
    })
    const api = createApiClient({
      baseUrl: server.url,
      getToken: () => token,
      capabilities: memoryCapabilityStore()
    })
    server.queue.push(server.json(200, { success: true, data: [item('a1', 'One'), item('a2', 'Two')] }))
    const clean = await api.agents.list()
    expect(clean.map((a) => isChecked(a, [token]))).toEqual([true, true])
    // An answer that echoes the token is masked, and nothing in it is marked.
    server.queue.push(
      server.json(200, { success: true, data: [item('a1', 'One'), item('a2', `echo ${token}`)] })
    )
    const echoed = await api.agents.list()
    expect(echoed[1]?.name).toBe('echo ••••')
    expect(echoed.map((a) => isChecked(a, [token]))).toEqual([false, false])
  })
})
