/**
 * Long lists a page at a time where the server pages them (the embedded service), so no answer
 * outgrows the transport's limit; servers that ignore or refuse `skip`/`take` still give the whole
 * list, and what each does is remembered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService } from '../../service'
import { seededService } from '../../../test/support/seededService'
import {
  startScriptedServer,
  type ScriptedAnswer,
  type ScriptedServer
} from '../../../test/servers/scriptedServer'
import { startQueryProxy, type QueryProxy } from '../../../test/servers/unpagedProxy'
import { createApiClient, memoryCapabilityStore, type ApiClientOptions } from './client'
import { z } from 'zod'
import { endpoints } from './endpoints'
import { capAt, LIST_PAGE, LIST_PAGING, LIST_PARSE_STEP } from './listPaging'
import { createTransport } from './transport'
import { answerDigest, digestOf, readAsIs } from './answerDigest'
import { Agent } from '../../shared/agent'

const llm = { provider: 'openai', model: 'gpt-4o' }
const stamp = '2026-01-01T00:00:00.000000+00:00'
const agent = (i: number) => ({
  id: `a${i}`,
  name: `Agent ${i}`,
  type: 'REACT',
  llm,
  hasMemory: false,
  tags: [],
  createdAt: stamp,
  updatedAt: stamp
})

describe('paged lists against the embedded service', () => {
  let seeded: Awaited<ReturnType<typeof seededService>>
  let service: Awaited<ReturnType<typeof startService>>
  let token = ''

  beforeAll(async () => {
    seeded = await seededService('pager@example.com', 20)
    ;({ service, token } = seeded)
  })
  afterAll(async () => seeded.close())

  const client = (more: Partial<ApiClientOptions> = {}) => {
    const caps = memoryCapabilityStore()
    return {
      caps,
      api: createApiClient({ baseUrl: service.url, getToken: () => token, capabilities: caps, ...more })
    }
  }

  it('reads a list longer than one answer may be, a page at a time, in the server’s order', async () => {
    const whole = await client().api.agents.list()
    expect(whole).toHaveLength(20)
    // Answers of at most 4 KiB: the whole list (about 9 KiB) cannot come in one.
    const small = { maxResponseBytes: 4096 }
    const unpaged = client({ ...small, listPageSize: 1000 })
    await expect(unpaged.api.agents.list()).rejects.toMatchObject({ kind: 'too_large' })
    const paged = client({ ...small, listPageSize: 3 })
    const items = await paged.api.agents.list()
    expect(items.map((a) => a.id)).toEqual(whole.map((a) => a.id))
    expect(paged.caps.get(LIST_PAGING)).toBe('offered')
  })

  it('marks a list with the digest of the pages it was read from: the same pages, the same digest', async () => {
    const paged = client({ listPageSize: 3 })
    const first = answerDigest(await paged.api.agents.list())
    expect(first).toMatch(/^[A-Za-z0-9+/]{43}=$/)
    expect(answerDigest(await paged.api.agents.list())).toBe(first)
    // A change on the last page (agents come newest first) gives another digest.
    const all = await paged.api.agents.list()
    const last = all[all.length - 1]
    if (!last) throw new Error('no agent')
    const writer = client().api
    await writer.agents.update(last.id, { name: 'Agent 0 renamed' })
    const changed = answerDigest(await paged.api.agents.list())
    expect(changed).toBeDefined()
    expect(changed).not.toBe(first)
    // Read whole or a page at a time, the items are the same but the answers are not.
    const whole = answerDigest(await client().api.agents.list())
    expect(whole).toBeDefined()
    expect(whole).not.toBe(changed)
    // A single item is not marked (only lists are).
    expect(answerDigest(await writer.agents.get(last.id))).toBeUndefined()
  })
})

describe('a server that gives fewer than asked for (a cap on take)', () => {
  let seeded: Awaited<ReturnType<typeof seededService>>
  let service: Awaited<ReturnType<typeof startService>>
  let token = ''
  // The service as a server that gives at most 20 a page, and as itself (the queries noted).
  let capped: QueryProxy
  let plain: QueryProxy
  const CAP = 20

  beforeAll(async () => {
    seeded = await seededService('capped@example.com', 2 * CAP + 3, CAP)
    ;({ service, token } = seeded)
    capped = await startQueryProxy(service.url, (q) => {
      if (q.has('take')) q.set('take', String(Math.min(Number(q.get('take')), CAP)))
    })
    plain = await startQueryProxy(service.url, () => undefined)
  })
  afterAll(async () => {
    await capped.close()
    await plain.close()
    await seeded.close()
  })

  const client = (baseUrl: string) => {
    const caps = memoryCapabilityStore()
    return { caps, api: createApiClient({ baseUrl, getToken: () => token, capabilities: caps }) }
  }

  it('reads the whole list, a capped page at a time, in the server’s order', async () => {
    expect(capAt(CAP)).toBe(true)
    const whole = await client(service.url).api.agents.list()
    expect(whole).toHaveLength(2 * CAP + 3)
    capped.forwarded.length = 0
    const { caps, api } = client(capped.url)
    expect((await api.agents.list()).map((a) => a.id)).toEqual(whole.map((a) => a.id))
    expect(capped.forwarded).toEqual(
      [0, CAP, 2 * CAP].map((skip) => `/api/v1/agents?skip=${skip}&take=${CAP}`)
    )
    // Not taken for a server that gives whole pages: the next list is read the same way.
    expect(caps.get(LIST_PAGING)).not.toBe('offered')
  })

  it('a server that ignores skip but honours take: page one came again, so the list is read whole', async () => {
    const skipless = await startQueryProxy(service.url, (q) => q.delete('skip'))
    try {
      const whole = await client(service.url).api.agents.list()
      const caps = memoryCapabilityStore()
      const api = createApiClient({
        baseUrl: skipless.url,
        getToken: () => token,
        capabilities: caps,
        listPageSize: CAP
      })
      expect((await api.agents.list()).map((a) => a.id)).toEqual(whole.map((a) => a.id))
      expect(skipless.forwarded).toEqual([
        `/api/v1/agents?take=${CAP}`,
        `/api/v1/agents?take=${CAP}`,
        '/api/v1/agents'
      ])
      expect(caps.get(LIST_PAGING)).toBe('not_offered')
      expect(await api.agents.list()).toHaveLength(whole.length)
      expect(skipless.forwarded).toHaveLength(4)
    } finally {
      await skipless.close()
    }
  })

  it('a list that ends at such a count costs one request more, until whole pages were seen', async () => {
    plain.forwarded.length = 0
    const { caps, api } = client(plain.url)
    expect(await api.tools.list()).toHaveLength(CAP)
    expect(plain.forwarded).toEqual([
      `/api/v1/tools?skip=0&take=${LIST_PAGE}`,
      `/api/v1/tools?skip=${CAP}&take=${LIST_PAGE}`
    ])
    // A list of another length ends at its short page, as before.
    plain.forwarded.length = 0
    expect(await api.agents.list()).toHaveLength(2 * CAP + 3)
    expect(plain.forwarded).toHaveLength(1)
    // Once a server gave a whole page of LIST_PAGE (paging known to be offered), a short page ends the list.
    caps.set(LIST_PAGING, 'offered')
    plain.forwarded.length = 0
    expect(await api.tools.list()).toHaveLength(CAP)
    expect(plain.forwarded).toHaveLength(1)
  })
})

describe('paged lists against servers that do not page', () => {
  let server: ScriptedServer
  beforeAll(async () => {
    server = await startScriptedServer()
  })
  afterAll(async () => server.close())

  const client = () => {
    const caps = memoryCapabilityStore()
    const api = createApiClient({
      baseUrl: server.url,
      getToken: () => 'tok-123456789',
      capabilities: caps,
      listPageSize: 3
    })
    return { caps, api }
  }

  it('a server that ignores skip/take: its whole answer is the list, asked once from then on', async () => {
    server.requests.length = 0
    server.queue.push(server.json(200, { success: true, data: [1, 2, 3, 4, 5, 6, 7].map(agent) }))
    const { caps, api } = client()
    expect((await api.agents.list()).map((a) => a.id)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7'])
    expect(caps.get(LIST_PAGING)).toBe('not_offered')
    server.queue.push(server.json(200, { success: true, data: [1, 2].map(agent) }))
    await api.agents.list()
    expect(server.requests.map((r) => r.query)).toEqual(['?skip=0&take=3', ''])
  })

  it('a server that ignores them with exactly a page of items: the repeat is noticed, nothing doubled', async () => {
    server.requests.length = 0
    const page = { success: true, data: [1, 2, 3].map(agent) }
    server.queue.push(server.json(200, page), server.json(200, page), server.json(200, page))
    const { caps, api } = client()
    expect((await api.agents.list()).map((a) => a.id)).toEqual(['a1', 'a2', 'a3'])
    expect(caps.get(LIST_PAGING)).toBe('not_offered')
    // A whole page may not have been the whole list (a server that honours `take`): read whole once.
    expect(server.requests.map((r) => r.query)).toEqual(['?skip=0&take=3', '?skip=3&take=3', ''])
  })

  it('an item that moved to the next page while the list was read (a new one first) is listed once', async () => {
    server.requests.length = 0
    server.queue.push(
      server.json(200, { success: true, data: [5, 4, 3].map(agent) }),
      server.json(200, { success: true, data: [3, 2, 1].map(agent) }),
      server.json(200, { success: true, data: [0].map(agent) })
    )
    const { api } = client()
    expect((await api.agents.list()).map((a) => a.id)).toEqual(['a5', 'a4', 'a3', 'a2', 'a1', 'a0'])
    expect(server.requests.map((r) => r.query)).toEqual([
      '?skip=0&take=3',
      '?skip=3&take=3',
      '?skip=6&take=3'
    ])
  })

  it('the same bytes read as a page and read whole are different answers (pages drop repeats)', async () => {
    const body = { success: true, data: [1, 1].map(agent) }
    server.queue.push(server.json(200, body))
    const { caps, api } = client()
    const paged = await api.agents.list()
    expect(paged.map((a) => a.id)).toEqual(['a1'])
    caps.set(LIST_PAGING, 'not_offered')
    server.queue.push(server.json(200, body))
    const whole = await api.agents.list()
    expect(whole.map((a) => a.id)).toEqual(['a1', 'a1'])
    expect(answerDigest(paged)).toBeDefined()
    expect(answerDigest(whole)).toBeDefined()
    expect(answerDigest(whole)).not.toBe(answerDigest(paged))
  })

  it('an answer that held the token is masked and not marked; one that did not is', async () => {
    const { api } = client()
    const body = { success: true, data: [1, 2].map(agent) }
    server.queue.push(server.json(200, body), server.json(200, body))
    const a = answerDigest(await api.agents.list())
    expect(a).toBeDefined()
    expect(answerDigest(await api.agents.list())).toBe(a)
    const echoed = { ...agent(3), description: 'Bearer tok-123456789' }
    server.queue.push(server.json(200, { success: true, data: [echoed] }))
    const masked = await api.agents.list()
    expect(masked[0]?.description).not.toContain('tok-123456789')
    expect(answerDigest(masked)).toBeUndefined()
  })

  it('a server that refuses the parameters (422): asked again without them', async () => {
    server.requests.length = 0
    server.queue.push(
      server.json(422, {
        detail: [{ loc: ['query', 'skip'], msg: 'extra fields not permitted', type: 'value_error' }]
      }),
      server.json(200, { success: true, data: [1, 2, 3, 4].map(agent) })
    )
    const { caps, api } = client()
    expect(await api.agents.list()).toHaveLength(4)
    expect(caps.get(LIST_PAGING)).toBe('not_offered')
    expect(server.requests.map((r) => r.query)).toEqual(['?skip=0&take=3', ''])
  })
})

describe('a page past a capped first page', () => {
  let server: ScriptedServer
  beforeAll(async () => {
    server = await startScriptedServer()
  })
  afterAll(async () => server.close())

  // A first page of 20 (capAt: perhaps the server's cap), then `second` for every later request.
  const listWith = async (second: ScriptedAnswer) => {
    server.requests.length = 0
    server.queue.push(
      server.json(200, { success: true, data: Array.from({ length: 20 }, (_, i) => agent(i)) })
    )
    server.fallback = second
    const api = createApiClient({
      baseUrl: server.url,
      getToken: () => 'tok-123456789',
      capabilities: memoryCapabilityStore()
    })
    return api.agents.list()
  }

  it.each([404, 400, 416])('refused (%i): the list ended at the first page', async (status) => {
    const list = await listWith(server.json(status, { success: false, error: 'nothing there' }))
    expect(list).toHaveLength(20)
    expect(server.requests.map((r) => r.query)).toEqual([
      `?skip=0&take=${LIST_PAGE}`,
      `?skip=20&take=${LIST_PAGE}`
    ])
  })

  it.each([
    ['no answer', 'destroy' as const, 'network'],
    ['a server error', { status: 503, body: 'busy' }, 'server'],
    ['signed out', { status: 401, body: '{"success":false,"error":"expired"}' }, 'unauthorized']
  ])('%s: a failure, not a list cut short at the first page', async (_, second, kind) => {
    await expect(listWith(second)).rejects.toMatchObject({ kind })
    expect(server.requests[1]?.query).toBe(`?skip=20&take=${LIST_PAGE}`)
  })
})

describe('a long answer keeps the event loop free', () => {
  let server: ScriptedServer
  beforeAll(async () => {
    server = await startScriptedServer()
  })
  afterAll(async () => server.close())

  it(`validates a list ${LIST_PARSE_STEP} items at a time, the event loop turning between the steps`, async () => {
    const n = 2 * LIST_PARSE_STEP + 250
    server.queue.push(
      server.json(200, { success: true, data: Array.from({ length: n }, (_, i) => agent(i)) })
    )
    // Counts the turns of the event loop; each item notes the count it was validated in.
    let turns = 0
    let ticking = true
    const tick = () => {
      turns++
      if (ticking) setImmediate(tick)
    }
    const validatedIn: number[] = []
    const schema = z
      .object({ id: z.string() })
      .passthrough()
      .transform((a) => {
        validatedIn.push(turns)
        return a
      })
    const t = createTransport({
      baseUrl: server.url,
      getToken: () => 'tok-123456789',
      capabilities: memoryCapabilityStore()
    })
    tick()
    const items = await endpoints(t).list('agents.list', '/agents', schema, 'agent')
    ticking = false
    expect(items.map((a) => a.id)).toEqual(Array.from({ length: n }, (_, i) => `a${i}`))
    // Three steps (500, 500, 250), each within one turn, and the loop turned between them.
    const steps = [...new Set(validatedIn)]
    expect(steps).toHaveLength(3)
    expect(steps.map((turn) => validatedIn.filter((v) => v === turn).length)).toEqual([
      LIST_PARSE_STEP,
      LIST_PARSE_STEP,
      250
    ])
  })

  it('hands a long page on in a turn of the loop after its arrival, its items checked or taken as checked', async () => {
    const body = { success: true, data: Array.from({ length: LIST_PARSE_STEP + 1 }, (_, i) => agent(i)) }
    const t = createTransport({
      baseUrl: server.url,
      getToken: () => 'tok-123456789',
      capabilities: memoryCapabilityStore()
    })
    // An immediate set as each answer arrives: it has run before the page is handed on.
    const ran: boolean[] = []
    let arrived = { ran: false }
    const watched = {
      ...t,
      request: async (call: Parameters<typeof t.request>[0]) => {
        const value = await t.request(call)
        const mark = { ran: false }
        setImmediate(() => (mark.ran = true))
        arrived = mark
        return value
      }
    }
    const e = endpoints(watched)
    for (let i = 0; i < 2; i++) {
      server.queue.push(server.json(200, body))
      await e.pages(
        'agents.list',
        '/agents',
        Agent,
        'agent',
        undefined,
        async () => void ran.push(arrived.ran)
      )
    }
    // The second time the same bytes are taken as checked (readAsIs), with no step to yield in.
    expect(readAsIs(Agent, digestOf(Buffer.from(JSON.stringify(body))))).toBe(true)
    expect(ran).toEqual([true, true])
  })
})
