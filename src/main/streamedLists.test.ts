/**
 * A list in one answer from a server without paging leaves main as it comes
 * (offline/listStream.ts): its first pieces reach the page while the server's answer is still
 * being read, and what only the end tells comes with the last piece. The server here answers a
 * list whole (test/servers/unpagedProxy.ts, which can hold an answer part-way: BodyHold), in front
 * of a gate (test/servers/gateProxy.ts) that can cut every request; the answer of a page and a half is
 * read in groups (the first of LIST_PAGE agents, then of LATER_GROUP), the core answers in pieces of
 * 1,000, and each answer is held once 80% of its bytes went on (past the first group).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { startService } from '../service'
import { seedAccount, servedAgents, type SeedResult } from '../../test/bench/seed'
import { startGateProxy, type GateProxy } from '../../test/servers/gateProxy'
import { startUnpagedProxy, type QueryProxy } from '../../test/servers/unpagedProxy'
import { tempDir, testCore, waitFor, type TestCore } from '../../test/support/mainCore'
import { itemsOfJson, wholeReply } from '../../test/support/wholeReply'
import { LIST_PAGE } from './api/listPaging'
import {
  buildDeskApi,
  CHANNELS,
  EVENT_NAMES,
  type AnswerPiece,
  type DeskApi,
  type IpcReply
} from '../shared/ipc'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

const AGENTS = LIST_PAGE + LIST_PAGE / 2

interface Setup {
  t: TestCore
  gate: GateProxy
  proxy: QueryProxy
  seed: SeedResult
  profile: { id: string }
  /** The service's agents, in its order. */
  served: () => Promise<{ id: string; name: string }[]>
}

/**
 * `gated`: the gate between the front and the service (the answer relayed whole, with its
 * length); else the front relays the service's own answer, sent in chunks as its rows are read
 * (service/reads.ts), without a length.
 */
async function setUp(gated = true): Promise<Setup> {
  const service = await startService({
    dataDir: tempDir('agent-desk-svc-'),
    scryptCost: 16,
    logger: () => {}
  })
  cleanup.push(() => service.close())
  // The gate before the service (it relays an answer once whole), the front without paging before
  // the gate (it relays an answer as it comes, and holds it part-way).
  const gate = await startGateProxy(service.url)
  cleanup.push(() => gate.close())
  const proxy = await startUnpagedProxy(gated ? gate.url : service.url)
  cleanup.push(() => proxy.close())
  const seed = await seedAccount(service.url, { agents: AGENTS, tags: 1 })
  const t = testCore({ answerPieceItems: 1000, fetchTimeoutMs: 60_000 })
  cleanup.push(() => t.core.dispose())
  const profile = await t.call('profiles.save', { name: 'Without paging', baseUrl: proxy.url })
  await t.call('session.signIn', { profileId: profile.id, email: seed.email, password: seed.password })
  const served = () => servedAgents(service.url, seed.token)
  return { t, gate, proxy, seed, profile, served }
}

/** Holds the next list's answer once 80% of its bytes went on, until `release` (`release(true)` cuts it). */
async function holdAnswer({ proxy, served }: Setup) {
  const bytes = Buffer.byteLength(JSON.stringify({ success: true, data: await served() }))
  let release!: (cut?: boolean) => void
  const released = new Promise<boolean>((r) => (release = (cut = false) => r(cut)))
  const hold = { path: '/api/v1/agents', bytes: Math.floor(bytes * 0.8), released, held: false }
  proxy.hold = hold
  return { release, held: () => hold.held }
}

/** The window API over the core (as deskApiOver), noting when `agents.list` last answered. */
function windowApi(t: TestCore) {
  const noted = { answered: false }
  const api = buildDeskApi(
    CHANNELS,
    EVENT_NAMES,
    async (channel, input) => {
      const reply = await t.core.invoke(channel, input)
      if (channel === 'agents.list') noted.answered = true
      return reply
    },
    () => () => undefined
  ) as DeskApi
  return { api, noted }
}

/** The first reply to `agents.list`, or a failure when none came while the answer was held. */
async function firstReply(t: TestCore): Promise<IpcReply<unknown>> {
  const reply = t.core.invoke('agents.list', {})
  const late = new Promise<'held'>((r) => setTimeout(() => r('held'), 10_000).unref())
  const first = await Promise.race([reply, late])
  if (first === 'held') throw new Error('no answer came while the server was still answering')
  return first
}

describe('a list longer than a piece, from a server', () => {
  it.each([
    ['with its length', true],
    ['in chunks without a length', false]
  ])(
    'leaves main as it comes (%s): its first pieces while the server still answers, then the rest, in order',
    async (_, gated) => {
      const setup = await setUp(gated)
      const { t, served } = setup
      const hold = await holdAnswer(setup)
      const reply = await firstReply(t)
      await waitFor(hold.held)
      if (!reply.ok || !reply.more) throw new Error('a list in pieces was expected')
      // Its count is not known before the end.
      expect(reply.more.count).toBeUndefined()
      // The first group's pieces are there to take.
      const pieces: AnswerPiece[] = []
      for (let i = 0; i < 2; i++) {
        const r = await t.core.invoke('answers.next', { id: reply.more.id })
        if (!r.ok) throw new Error(r.error.message)
        pieces.push(r.value as AnswerPiece)
      }
      expect(pieces.every((p) => !p.done)).toBe(true)
      hold.release()
      // The reply's own first piece (what main had then), the two taken, then the rest.
      const { json, ...withoutJson } = reply
      const first = itemsOfJson(json ?? []) as { id: string }[]
      const whole = await wholeReply(
        { ...withoutJson, value: { ...(reply.value as object), data: [] } },
        (c, i) => t.core.invoke(c, i)
      )
      if (!whole.ok) throw new Error(whole.error.message)
      const rest = (whole.value as { data: { id: string }[] }).data
      const taken = pieces.flatMap((p) =>
        'json' in p ? p.json.flatMap((j) => JSON.parse(j) as { id: string }[]) : []
      )
      const expected = (await served()).map((a) => a.id)
      expect([...first, ...taken, ...rest].map((a) => a.id)).toEqual(expected)
      // Written to the cache whole once it ended.
      const cached = await t.call('agents.list', { cacheOnly: true })
      expect(cached.data.map((a) => a.id)).toEqual(expected)
    }
  )

  it('leaves out an agent deleted while it came, and lists one created offline first (the last piece says so)', async () => {
    const setup = await setUp()
    const { t, gate, served } = setup
    expect((await t.call('agents.list')).data).toHaveLength(AGENTS)
    // Created offline with a prompt the server does not have: its replay is refused, so it waits.
    gate.mode = 'down'
    expect((await t.call('agents.list')).offline).toBe(true)
    const local = await t.call('agents.create', {
      name: 'Offline bot',
      type: 'REACT',
      llm: { provider: 'p', model: 'm' },
      promptId: '00000000-0000-4000-8000-000000000000'
    })
    gate.mode = 'pass'
    await t.call('session.reconnect')
    await waitFor(async () => (await t.call('outbox.list'))[0]?.status === 'failed')
    const before = await served()
    const doomed = before[5] as { id: string }
    const hold = await holdAnswer(setup)
    const { api, noted } = windowApi(t)
    const listing = api.agents.list()
    // Answered while the rest of the server's answer is held.
    await waitFor(() => noted.answered)
    expect(hold.held()).toBe(true)
    // Deleted once the server answered (its piece may have left already).
    expect((await t.call('agents.delete', { id: doomed.id })).status).toBe('done')
    hold.release()
    const listed = await listing
    expect(listed.source).toBe('network')
    expect(listed.data.map((a) => a.id)).toEqual([
      local.data.id,
      ...before.map((a) => a.id).filter((id) => id !== doomed.id)
    ])
    const cached = await t.call('agents.list', { cacheOnly: true })
    expect(cached.data.map((a) => a.id)).toEqual(listed.data.map((a) => a.id))
  })

  it('broken off while it comes, is asked again by the window API and answered from the cache, offline', async () => {
    const setup = await setUp()
    const { t, gate } = setup
    const { api, noted } = windowApi(t)
    const first = await api.agents.list()
    expect(first.data).toHaveLength(AGENTS)
    const hold = await holdAnswer(setup)
    noted.answered = false
    const listing = api.agents.list()
    // Answered while the rest of the server's answer is held.
    await waitFor(() => noted.answered)
    expect(hold.held()).toBe(true)
    // Cut, and the server unreachable from then on (every request cut: kept-alive sockets too).
    hold.release(true)
    gate.before = () => 'drop'
    const listed = await listing
    expect(listed.source).toBe('cache')
    expect(listed.offline).toBe(true)
    expect(listed.data.map((a) => a.id)).toEqual(first.data.map((a) => a.id))
  })

  it('holds its session until it is written: signed out meanwhile, the cache still gets the whole list', async () => {
    const setup = await setUp()
    const { t, seed, profile, served } = setup
    // The rest of the answer comes after sign-out (no request is left to make).
    const hold = await holdAnswer(setup)
    const reply = await firstReply(t)
    expect(reply.ok && reply.more).toBeTruthy()
    await waitFor(hold.held)
    await t.call('session.signOut', { clearCache: false })
    hold.release()
    await t.call('session.signIn', { profileId: profile.id, email: seed.email, password: seed.password })
    const expected = (await served()).map((a) => a.id)
    await waitFor(async () => (await t.call('agents.list', { cacheOnly: true })).data.length === AGENTS)
    expect((await t.call('agents.list', { cacheOnly: true })).data.map((a) => a.id)).toEqual(expected)
  })
})
