import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  AgentStrict,
  DocumentStrict,
  ErrorEnvelope,
  PromptStrict,
  TagStrict,
  TIMESTAMP_RE,
  ToolStrict,
  UserStrict
} from '../shared'
import { signUp, startTestServer, type Client, type TestServer } from '../../test/support/serviceKit'

let srv: TestServer
let me: Awaited<ReturnType<typeof signUp>>
let other: Awaited<ReturnType<typeof signUp>>
beforeAll(async () => {
  srv = await startTestServer()
  me = await signUp(srv.base, 'Me')
  other = await signUp(srv.base, 'Other')
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
const fieldsOf = (env: { error: { details?: { field: string }[] } }) =>
  (env.error.details ?? []).map((d) => d.field)

const docBody = {
  name: 'Handbook',
  type: 'PDF',
  url: 'https://example.com/handbook.pdf',
  from_page: 2,
  to_page: '10',
  authorization: null,
  splitter: null,
  metadata: { lang: 'en' }
}

async function makeTag(api: Client, userId: string, name = 'urgent', color = '#abc') {
  const r = await api.post('/tags', { name, color, userId })
  expect(r.status).toBe(200)
  return TagStrict.parse(r.data)
}

describe('documents', () => {
  it('creates, gets, renames, lists and deletes a document with every field', async () => {
    const c = await me.api.post('/documents', docBody)
    expect(c.status).toBe(200)
    expect(c.json).toMatchObject({ success: true })
    const doc = DocumentStrict.parse(c.data)
    expect(doc).toMatchObject({
      userId: me.userId,
      name: 'Handbook',
      type: 'PDF',
      url: 'https://example.com/handbook.pdf',
      from_page: 2,
      to_page: 10,
      metadata: { lang: 'en' },
      authorization: null,
      splitter: null,
      index: null,
      Agent: null
    })
    expect(UserStrict.parse(doc.user).id).toBe(me.userId)
    expect(doc.createdAt).toMatch(TIMESTAMP_RE)
    expect(doc.updatedAt).toMatch(TIMESTAMP_RE)

    const got = DocumentStrict.parse((await me.api.get(`/documents/${doc.id}`)).data)
    expect(got).toEqual(doc)

    const renamed = DocumentStrict.parse(
      (await me.api.patch(`/documents/${doc.id}`, { name: 'Manual' })).data
    )
    expect(renamed.name).toBe('Manual')
    expect(renamed.url).toBe(doc.url)
    expect(renamed.updatedAt > doc.updatedAt).toBe(true)
    expect(renamed.createdAt).toBe(doc.createdAt)

    const list = (await me.api.get('/documents')).data as unknown[]
    expect(list.map((d) => DocumentStrict.parse(d).id)).toContain(doc.id)

    expect((await me.api.del(`/documents/${doc.id}`)).json).toEqual({ success: true, data: null })
    expectError(await me.api.get(`/documents/${doc.id}`), 404, 'not_found')
    expectError(await me.api.del(`/documents/${doc.id}`), 404, 'not_found')
  })

  it('validates document input field by field', async () => {
    let env = expectError(
      await me.api.post('/documents', { ...docBody, type: 'DOCX' }),
      400,
      'validation_failed'
    )
    expect(fieldsOf(env)).toEqual(['type'])
    env = expectError(
      await me.api.post('/documents', { ...docBody, url: 'ftp://x' }),
      400,
      'validation_failed'
    )
    expect(fieldsOf(env)).toEqual(['url'])
    env = expectError(
      await me.api.post('/documents', { ...docBody, from_page: 5, to_page: 3 }),
      400,
      'validation_failed'
    )
    expect(fieldsOf(env)).toEqual(['to_page'])
    env = expectError(
      await me.api.post('/documents', { type: 'TXT', url: 'https://e.com' }),
      400,
      'validation_failed'
    )
    expect(fieldsOf(env)).toEqual(['name'])
    env = expectError(
      await me.api.post('/documents', { ...docBody, metadata: [1] }),
      400,
      'validation_failed'
    )
    expect(fieldsOf(env)).toEqual(['metadata'])
    const doc = DocumentStrict.parse((await me.api.post('/documents', docBody)).data)
    env = expectError(await me.api.patch(`/documents/${doc.id}`, { name: 42 }), 400, 'validation_failed')
    expect(fieldsOf(env)).toEqual(['name'])
    expect(DocumentStrict.parse((await me.api.get(`/documents/${doc.id}`)).data).name).toBe('Handbook')
  })

  it("hides another user's document (404 on get, patch, delete; absent from list)", async () => {
    const doc = DocumentStrict.parse((await me.api.post('/documents', docBody)).data)
    expectError(await other.api.get(`/documents/${doc.id}`), 404, 'not_found')
    expectError(await other.api.patch(`/documents/${doc.id}`, { name: 'mine now' }), 404, 'not_found')
    expectError(await other.api.del(`/documents/${doc.id}`), 404, 'not_found')
    expect((await other.api.get('/documents')).data).toEqual([])
    expect(DocumentStrict.parse((await me.api.get(`/documents/${doc.id}`)).data).name).toBe('Handbook')
  })
})

describe('tags', () => {
  it('normalises colours, patches, lists and deletes', async () => {
    const tag = await makeTag(me.api, me.userId, 'urgent', '#abc')
    expect(tag.color).toBe('#AABBCC')
    expect(tag.userId).toBe(me.userId)
    expect(tag.createdAt).toMatch(TIMESTAMP_RE)
    expect((await makeTag(me.api, me.userId, 'x', '#a1b2c3')).color).toBe('#A1B2C3')

    const patched = TagStrict.parse((await me.api.patch(`/tags/${tag.id}`, { color: '#0e8a16' })).data)
    expect(patched).toMatchObject({ id: tag.id, name: 'urgent', color: '#0E8A16' })
    expect(TagStrict.parse((await me.api.get(`/tags/${tag.id}`)).data)).toEqual(patched)
    const list = ((await me.api.get('/tags')).data as unknown[]).map((t) => TagStrict.parse(t).id)
    expect(list).toContain(tag.id)
    expect((await me.api.del(`/tags/${tag.id}`)).json).toEqual({ success: true, data: null })
    expectError(await me.api.get(`/tags/${tag.id}`), 404, 'not_found')
  })

  it('rejects bad colours, a missing name and another userId (403)', async () => {
    for (const color of ['red', '#abcd', '#GGGGGG', 'abc', '', 123]) {
      const env = expectError(
        await me.api.post('/tags', { name: 'n', color, userId: me.userId }),
        400,
        'validation_failed'
      )
      expect(fieldsOf(env)).toEqual(['color'])
    }
    expect(
      fieldsOf(
        expectError(
          await me.api.post('/tags', { color: '#fff', userId: me.userId }),
          400,
          'validation_failed'
        )
      )
    ).toEqual(['name'])
    expectError(
      await me.api.post('/tags', { name: 'n', color: '#fff', userId: other.userId }),
      403,
      'forbidden'
    )
    const tag = await makeTag(me.api, me.userId)
    expect(
      fieldsOf(
        expectError(await me.api.patch(`/tags/${tag.id}`, { color: 'blue' }), 400, 'validation_failed')
      )
    ).toEqual(['color'])
    expectError(await other.api.get(`/tags/${tag.id}`), 404, 'not_found')
    expectError(await other.api.patch(`/tags/${tag.id}`, { name: 'z' }), 404, 'not_found')
    expectError(await other.api.del(`/tags/${tag.id}`), 404, 'not_found')
  })
})

describe('prompts', () => {
  it('derives input_variables from the template, keeps given ones, re-derives on template patch', async () => {
    const c = await me.api.post('/prompts', {
      name: 'Greeting',
      template: 'Hello {name}, {{literal}} {name} {topic!r}'
    })
    expect(c.status).toBe(200)
    const p = PromptStrict.parse(c.data)
    expect(p).toMatchObject({ name: 'Greeting', userId: me.userId, input_variables: ['name', 'topic'] })
    expect(p.createdAt).toMatch(TIMESTAMP_RE)

    const given = PromptStrict.parse(
      (await me.api.post('/prompts', { name: 'G', template: 'Hi {a}', input_variables: ['a', 'b'] })).data
    )
    expect(given.input_variables).toEqual(['a', 'b'])

    const renamed = PromptStrict.parse((await me.api.patch(`/prompts/${p.id}`, { name: 'Renamed' })).data)
    expect(renamed).toMatchObject({
      name: 'Renamed',
      input_variables: ['name', 'topic'],
      template: p.template
    })
    const retemplated = PromptStrict.parse(
      (await me.api.patch(`/prompts/${p.id}`, { template: 'Bye {who}' })).data
    )
    expect(retemplated.input_variables).toEqual(['who'])
    expect(PromptStrict.parse((await me.api.get(`/prompts/${p.id}`)).data)).toEqual(retemplated)

    const list = ((await me.api.get('/prompts')).data as unknown[]).map((x) => PromptStrict.parse(x).id)
    expect(list.slice(0, 2)).toEqual([given.id, p.id])
    expect((await me.api.del(`/prompts/${p.id}`)).json).toEqual({ success: true, data: null })
    expectError(await me.api.get(`/prompts/${p.id}`), 404, 'not_found')
  })

  it('rejects broken placeholders and bad variable names with field details', async () => {
    let env = expectError(
      await me.api.post('/prompts', { name: 'x', template: 'Hello {name' }),
      400,
      'validation_failed'
    )
    expect(fieldsOf(env)).toEqual(['template'])
    env = expectError(
      await me.api.post('/prompts', { name: 'x', template: 'a } b' }),
      400,
      'validation_failed'
    )
    expect(fieldsOf(env)).toEqual(['template'])
    env = expectError(
      await me.api.post('/prompts', { name: 'x', template: 'ok', input_variables: ['bad name'] }),
      400,
      'validation_failed'
    )
    expect(fieldsOf(env)).toEqual(['input_variables.0'])
    const p = PromptStrict.parse((await me.api.post('/prompts', { name: 'keep', template: 'Hi {a}' })).data)
    expectError(await me.api.patch(`/prompts/${p.id}`, { template: '{' }), 400, 'validation_failed')
    expect(PromptStrict.parse((await me.api.get(`/prompts/${p.id}`)).data).template).toBe('Hi {a}')
    expectError(await other.api.get(`/prompts/${p.id}`), 404, 'not_found')
    expectError(await other.api.patch(`/prompts/${p.id}`, { name: 'z' }), 404, 'not_found')
    expectError(await other.api.del(`/prompts/${p.id}`), 404, 'not_found')
  })
})

describe('tools', () => {
  it('creates, gets, patches (metadata), lists and deletes a tool', async () => {
    const c = await me.api.post('/tools', { name: 'Search', type: 'SEARCH' })
    expect(c.status).toBe(200)
    const tool = ToolStrict.parse(c.data)
    expect(tool).toMatchObject({
      name: 'Search',
      type: 'SEARCH',
      description: '',
      metadata: {},
      userId: me.userId
    })
    expect(UserStrict.parse(tool.user).id).toBe(me.userId)

    const patched = ToolStrict.parse(
      (
        await me.api.patch(`/tools/${tool.id}`, {
          description: 'Web search',
          type: 'OPENAPI',
          metadata: { spec: 'x' }
        })
      ).data
    )
    expect(patched).toMatchObject({
      name: 'Search',
      type: 'OPENAPI',
      description: 'Web search',
      metadata: { spec: 'x' }
    })
    expect(ToolStrict.parse((await me.api.get(`/tools/${tool.id}`)).data)).toEqual(patched)

    const list = (await me.api.get('/tools')).data as { id: string; name: string; type: string }[]
    expect(list[0]).toMatchObject({ id: tool.id, name: 'Search', type: 'OPENAPI' })
    expect((await me.api.del(`/tools/${tool.id}`)).json).toEqual({ success: true, data: null })
    expectError(await me.api.get(`/tools/${tool.id}`), 404, 'not_found')
  })

  it('validates tool types and hides tools from other users', async () => {
    const env = expectError(
      await me.api.post('/tools', { name: 'x', type: 'HAMMER' }),
      400,
      'validation_failed'
    )
    expect(fieldsOf(env)).toEqual(['type'])
    const tool = ToolStrict.parse(
      (await me.api.post('/tools', { name: 'Calc', type: 'MATHENGINE_ALPHA' })).data
    )
    expect(
      fieldsOf(
        expectError(await me.api.patch(`/tools/${tool.id}`, { metadata: 'x' }), 400, 'validation_failed')
      )
    ).toEqual(['metadata'])
    expectError(await other.api.get(`/tools/${tool.id}`), 404, 'not_found')
    expectError(await other.api.patch(`/tools/${tool.id}`, { name: 'z' }), 404, 'not_found')
    expectError(await other.api.del(`/tools/${tool.id}`), 404, 'not_found')
  })
})

describe('agents', () => {
  it('creates an agent reflecting the request (type, llm, memory, prompt, document, tags by object and id)', async () => {
    const t1 = await makeTag(me.api, me.userId, 'one', '#111')
    const t2 = await makeTag(me.api, me.userId, 'two', '#222222')
    const prompt = PromptStrict.parse(
      (await me.api.post('/prompts', { name: 'p', template: 'Do {task}' })).data
    )
    const doc = DocumentStrict.parse((await me.api.post('/documents', docBody)).data)
    const body = {
      name: 'Researcher',
      type: 'CHATVENDOR',
      llm: { provider: 'anthropic', model: 'claude' },
      hasMemory: true,
      promptId: prompt.id,
      documentId: doc.id,
      tags: [t1, t2.id]
    }
    const c = await me.api.post('/agents', body)
    expect(c.status).toBe(200)
    const agent = AgentStrict.parse(c.data)
    expect(agent).toMatchObject({
      name: 'Researcher',
      type: 'CHATVENDOR',
      llm: { provider: 'anthropic', model: 'claude' },
      hasMemory: true,
      promptId: prompt.id,
      documentId: doc.id,
      userId: me.userId,
      AgentMemory: null
    })
    expect(agent.tags.map((t) => [t.id, t.color])).toEqual([
      [t1.id, '#111111'],
      [t2.id, '#222222']
    ])
    expect(DocumentStrict.parse(agent.document).id).toBe(doc.id)
    expect(UserStrict.parse(agent.user).id).toBe(me.userId)
    expect(JSON.stringify(agent.user)).not.toMatch(/password|scrypt/)

    const got = AgentStrict.parse((await me.api.get(`/agents/${agent.id}`)).data)
    expect(got).toEqual(agent)
    const listed = ((await me.api.get('/agents')).data as unknown[]).map((a) => AgentStrict.parse(a))
    expect(listed.find((a) => a.id === agent.id)).toEqual(agent)
  })

  it('defaults: no tags → [], no document → {}, hasMemory false', async () => {
    const a = AgentStrict.parse(
      (await me.api.post('/agents', { name: 'Plain', type: 'REACT', llm: { provider: 'p', model: 'm' } }))
        .data
    )
    expect(a).toMatchObject({ tags: [], document: {}, documentId: null, promptId: null, hasMemory: false })
  })

  it('keeps odd characters intact in names, tags and embedded documents', async () => {
    const odd = 'Quote " back\\slash \n line ünï 🚀 </script>'
    const tag = await makeTag(me.api, me.userId, odd, '#123')
    const doc = DocumentStrict.parse(
      (await me.api.post('/documents', { ...docBody, name: odd, metadata: { k: odd, n: 1.5 } })).data
    )
    const created = await me.api.post('/agents', {
      name: odd,
      type: 'REACT',
      llm: { provider: odd, model: 'm' },
      tags: [tag.id],
      documentId: doc.id
    })
    const a = AgentStrict.parse(created.data)
    expect(a.name).toBe(odd)
    expect(a.llm.provider).toBe(odd)
    expect(a.tags[0]?.name).toBe(odd)
    expect(DocumentStrict.parse(a.document).metadata).toEqual({ k: odd, n: 1.5 })
    const listed = ((await me.api.get('/agents')).data as unknown[]).map((x) => AgentStrict.parse(x))
    expect(listed.find((x) => x.id === a.id)).toEqual(a)
  })

  it('patches an agent, replacing tags only when given', async () => {
    const t1 = await makeTag(me.api, me.userId, 'a')
    const t2 = await makeTag(me.api, me.userId, 'b')
    const a = AgentStrict.parse(
      (
        await me.api.post('/agents', {
          name: 'P',
          type: 'REACT',
          llm: { provider: 'p', model: 'm' },
          tags: [t1.id]
        })
      ).data
    )
    const renamed = AgentStrict.parse(
      (await me.api.patch(`/agents/${a.id}`, { name: 'Q', llm: { provider: 'x', model: 'y' } })).data
    )
    expect(renamed).toMatchObject({ name: 'Q', type: 'REACT', llm: { provider: 'x', model: 'y' } })
    expect(renamed.tags.map((t) => t.id)).toEqual([t1.id])
    const retagged = AgentStrict.parse((await me.api.patch(`/agents/${a.id}`, { tags: [t2, t1] })).data)
    expect(retagged.tags.map((t) => t.id)).toEqual([t2.id, t1.id])
    const cleared = AgentStrict.parse(
      (await me.api.patch(`/agents/${a.id}`, { tags: [], type: 'CHATVENDOR' })).data
    )
    expect(cleared).toMatchObject({ tags: [], type: 'CHATVENDOR', name: 'Q' })
  })

  it('validates agent input: wrong type, missing field, unknown enum, foreign/unknown tags, prompt, document', async () => {
    const base = { name: 'A', type: 'REACT', llm: { provider: 'p', model: 'm' } }
    let env = expectError(await me.api.post('/agents', { ...base, type: 'ROBOT' }), 400, 'validation_failed')
    expect(fieldsOf(env)).toEqual(['type'])
    env = expectError(await me.api.post('/agents', { ...base, hasMemory: 'yes' }), 400, 'validation_failed')
    expect(fieldsOf(env)).toEqual(['hasMemory'])
    env = expectError(await me.api.post('/agents', { name: 'A', type: 'REACT' }), 400, 'validation_failed')
    expect(fieldsOf(env)).toEqual(['llm'])
    env = expectError(
      await me.api.post('/agents', { ...base, llm: { provider: 'p' } }),
      400,
      'validation_failed'
    )
    expect(fieldsOf(env)).toEqual(['llm.model'])
    env = expectError(await me.api.post('/agents', { ...base, name: 7 }), 400, 'validation_failed')
    expect(fieldsOf(env)).toEqual(['name'])

    const theirs = await makeTag(other.api, other.userId, 'theirs')
    const mine = await makeTag(me.api, me.userId, 'mine')
    env = expectError(
      await me.api.post('/agents', { ...base, tags: [mine.id, theirs.id, 'nope'] }),
      400,
      'validation_failed'
    )
    expect(fieldsOf(env)).toEqual(['tags.1', 'tags.2'])
    const theirPrompt = PromptStrict.parse(
      (await other.api.post('/prompts', { name: 'p', template: 't' })).data
    )
    env = expectError(
      await me.api.post('/agents', { ...base, promptId: theirPrompt.id }),
      400,
      'validation_failed'
    )
    expect(fieldsOf(env)).toEqual(['promptId'])
    const theirDoc = DocumentStrict.parse((await other.api.post('/documents', docBody)).data)
    env = expectError(
      await me.api.post('/agents', { ...base, documentId: theirDoc.id }),
      400,
      'validation_failed'
    )
    expect(fieldsOf(env)).toEqual(['documentId'])
    // Nothing was created by the refused requests.
    const names = ((await me.api.get('/agents')).data as { name: string }[]).map((a) => a.name)
    expect(names).not.toContain('A')
  })

  it("hides another user's agent", async () => {
    const a = AgentStrict.parse(
      (await me.api.post('/agents', { name: 'Secret', type: 'REACT', llm: { provider: 'p', model: 'm' } }))
        .data
    )
    expectError(await other.api.get(`/agents/${a.id}`), 404, 'not_found')
    expectError(await other.api.patch(`/agents/${a.id}`, { name: 'stolen' }), 404, 'not_found')
    expectError(await other.api.del(`/agents/${a.id}`), 404, 'not_found')
    expect(((await other.api.get('/agents')).data as unknown[]).length).toBe(0)
    expect(AgentStrict.parse((await me.api.get(`/agents/${a.id}`)).data).name).toBe('Secret')
    expect((await me.api.del(`/agents/${a.id}`)).json).toEqual({ success: true, data: null })
    expectError(await me.api.get(`/agents/${a.id}`), 404, 'not_found')
  })

  it('deleting a tag, prompt or document updates the agents that used them', async () => {
    const tag = await makeTag(me.api, me.userId, 'gone')
    const prompt = PromptStrict.parse((await me.api.post('/prompts', { name: 'p', template: 't' })).data)
    const doc = DocumentStrict.parse((await me.api.post('/documents', docBody)).data)
    const a = AgentStrict.parse(
      (
        await me.api.post('/agents', {
          name: 'Dep',
          type: 'REACT',
          llm: { provider: 'p', model: 'm' },
          tags: [tag.id],
          promptId: prompt.id,
          documentId: doc.id
        })
      ).data
    )
    await me.api.del(`/tags/${tag.id}`)
    await me.api.del(`/prompts/${prompt.id}`)
    await me.api.del(`/documents/${doc.id}`)
    const after = AgentStrict.parse((await me.api.get(`/agents/${a.id}`)).data)
    expect(after).toMatchObject({ tags: [], promptId: null, documentId: null, document: {} })
  })
})

describe('lists', () => {
  it('are newest first with skip/take, and reject bad skip/take', async () => {
    const u = await signUp(srv.base, 'Lister')
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      ids.push(
        TagStrict.parse((await u.api.post('/tags', { name: `t${i}`, color: '#fff', userId: u.userId })).data)
          .id
      )
    }
    const newestFirst = [...ids].reverse()
    const all = ((await u.api.get('/tags')).data as unknown[]).map((t) => TagStrict.parse(t))
    expect(all.map((t) => t.id)).toEqual(newestFirst)
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.createdAt >= all[i]!.createdAt).toBe(true)
    const pageTwo = ((await u.api.get('/tags?skip=1&take=2')).data as { id: string }[]).map((t) => t.id)
    expect(pageTwo).toEqual(newestFirst.slice(1, 3))
    expect(((await u.api.get('/tags?skip=4')).data as unknown[]).length).toBe(1)
    for (const q of ['skip=-1', 'take=0', 'take=abc', 'skip=1.5', 'take=100000']) {
      const env = expectError(await u.api.get(`/tags?${q}`), 400, 'validation_failed')
      expect(fieldsOf(env)).toEqual([q.split('=')[0]])
    }

    for (let i = 0; i < 3; i++) {
      await u.api.post('/agents', {
        name: `a${i}`,
        type: 'REACT',
        llm: { provider: 'p', model: 'm' },
        tags: [ids[i]]
      })
    }
    const allAgents = ((await u.api.get('/agents')).data as unknown[]).map((a) => AgentStrict.parse(a))
    expect(allAgents.map((a) => a.name)).toEqual(['a2', 'a1', 'a0'])
    expect(((await u.api.get('/agents?skip=3')).data as unknown[]).length).toBe(0)
    const agents = ((await u.api.get('/agents?skip=1&take=1')).data as unknown[]).map((a) =>
      AgentStrict.parse(a)
    )
    expect(agents.map((a) => [a.name, a.tags.map((t) => t.id)])).toEqual([['a1', [ids[1]]]])
  })
})
