/**
 * A list from a server longer than a piece leaves main as it comes (offline/listStream.ts): its
 * first pieces reach the page while the server's answer is still being read, and what only the end
 * tells comes with the last piece. The server here pages at most 100 agents a page (a cap on
 * `take`, test/servers/unpagedProxy.ts), behind a gate (test/servers/gateProxy.ts) that holds the
 * second page until the test lets it through; the core answers in pieces of 40.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { startService } from '../service'
import { seedAccount, type SeedResult } from '../../test/bench/seed'
import { startGateProxy, type GateRequest, type GateProxy } from '../../test/servers/gateProxy'
import { startQueryProxy } from '../../test/servers/unpagedProxy'
import { deskApiOver, tempDir, testCore, waitFor, type TestCore } from '../../test/support/mainCore'
import { wholeReply } from '../../test/support/wholeReply'
import type { AnswerPiece, IpcReply } from '../shared/ipc'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

const AGENTS = 250
const PIECE = 40

interface Setup {
  t: TestCore
  gate: GateProxy
  seed: SeedResult
  profile: { id: string }
  /** The service's agents, in its order. */
  served: () => Promise<{ id: string; name: string }[]>
}

async function setUp(): Promise<Setup> {
  const service = await startService({
    dataDir: tempDir('agent-desk-svc-'),
    scryptCost: 16,
    logger: () => {}
  })
  cleanup.push(() => service.close())
  const capped = await startQueryProxy(service.url, (query) => {
    if (query.has('take')) query.set('take', String(Math.min(100, Number(query.get('take')))))
  })
  cleanup.push(() => capped.close())
  const gate = await startGateProxy(capped.url)
  cleanup.push(() => gate.close())
  const seed = await seedAccount(service.url, { agents: AGENTS, tags: 1 })
  const t = testCore({ answerPieceItems: PIECE })
  cleanup.push(() => t.core.dispose())
  const profile = await t.call('profiles.save', { name: 'Capped', baseUrl: gate.url })
  await t.call('session.signIn', { profileId: profile.id, email: seed.email, password: seed.password })
  const served = async () => {
    const res = await fetch(`${service.url}/api/v1/agents?take=10000`, {
      headers: { Authorization: `Bearer ${seed.token}` }
    })
    return ((await res.json()) as { data: { id: string; name: string }[] }).data
  }
  return { t, gate, seed, profile, served }
}

/**
 * Holds the next list's `n`th page at the gate until `release` (`release(true)` cuts it): before
 * it reaches the server, or (`answered`) once the server answered it, before its answer is relayed.
 */
function holdPage(gate: GateProxy, n: number, answered = false) {
  let release!: (cut?: boolean) => void
  const released = new Promise<boolean>((r) => (release = (cut = false) => r(cut)))
  let pages = 0
  let held = false
  const hold = async (r: GateRequest) => {
    if (r.method !== 'GET' || r.path !== '/api/v1/agents' || ++pages !== n) return false
    held = true
    return released
  }
  if (answered) gate.after = async (r) => ((await hold(r)) ? 'drop' : 'relay')
  else gate.before = async (r) => ((await hold(r)) ? 'drop' : 'forward')
  return { release, held: () => held }
}

/** The first reply to `agents.list`, or 'held' when none came while the second page was held. */
async function firstReply(t: TestCore): Promise<IpcReply<unknown>> {
  const reply = t.core.invoke('agents.list', {})
  const late = new Promise<'held'>((r) => setTimeout(() => r('held'), 5_000).unref())
  const first = await Promise.race([reply, late])
  if (first === 'held') throw new Error('no answer came while the server was still answering')
  return first
}

describe('a list longer than a piece, from a server', () => {
  it('leaves main as it comes: its first pieces while the server still answers, then the rest, in order', async () => {
    const { t, gate, served } = await setUp()
    const hold = holdPage(gate, 2)
    const reply = await firstReply(t)
    await waitFor(hold.held)
    if (!reply.ok || !reply.more) throw new Error('a list in pieces was expected')
    // Its count is not known before the end.
    expect(reply.more.count).toBeUndefined()
    // The first page's pieces are there to take; the next waits for the server.
    const pieces: AnswerPiece[] = []
    for (let i = 0; i < 2; i++) {
      const r = await t.core.invoke('answers.next', { id: reply.more.id })
      if (!r.ok) throw new Error(r.error.message)
      pieces.push(r.value as AnswerPiece)
    }
    expect(pieces.every((p) => !p.done)).toBe(true)
    hold.release()
    const whole = await wholeReply({ ...reply, value: { ...(reply.value as object), data: [] } }, (c, i) =>
      t.core.invoke(c, i)
    )
    if (!whole.ok) throw new Error(whole.error.message)
    const rest = (whole.value as { data: { id: string }[] }).data
    const taken = pieces.flatMap((p) =>
      'json' in p ? p.json.flatMap((j) => JSON.parse(j) as { id: string }[]) : []
    )
    const expected = (await served()).map((a) => a.id)
    expect([...taken, ...rest].map((a) => a.id)).toEqual(expected)
    // Written to the cache whole once it ended.
    const cached = await t.call('agents.list', { cacheOnly: true })
    expect(cached.data.map((a) => a.id)).toEqual(expected)
  })

  it('leaves out an agent deleted while it came, and lists one created offline first (the last piece says so)', async () => {
    const { t, gate, served } = await setUp()
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
    // The last page held once the server answered it (a delete before a page is answered shifts
    // the pages after it: an item at the boundary would never come).
    const hold = holdPage(gate, 3, true)
    const api = deskApiOver(t)
    const listing = api.agents.list()
    await waitFor(hold.held)
    // Deleted once its page came (its piece may have left already).
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
    const { t, gate } = await setUp()
    const api = deskApiOver(t)
    const first = await api.agents.list()
    expect(first.data).toHaveLength(AGENTS)
    // The third page: a failure of the second could be the end of a list capped at 100 (capAt).
    const hold = holdPage(gate, 3)
    const listing = api.agents.list()
    await waitFor(hold.held)
    // Cut, and the server unreachable from then on (every request cut: kept-alive sockets too).
    hold.release(true)
    gate.before = () => 'drop'
    const listed = await listing
    expect(listed.source).toBe('cache')
    expect(listed.offline).toBe(true)
    expect(listed.data.map((a) => a.id)).toEqual(first.data.map((a) => a.id))
  })

  it('holds its session until it is written: signed out meanwhile, the cache still gets the whole list', async () => {
    const { t, gate, seed, profile, served } = await setUp()
    // The last page held once the server answered it: no request is left to make after sign-out.
    const hold = holdPage(gate, 3, true)
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
