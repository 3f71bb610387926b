/**
 * A long list, from a server without paging (as the origin answers: the whole list in one answer,
 * which goes to the cache a page's worth at a time as it is read, api/listGroups.ts) or a page at a
 * time (the embedded service): through the core, the list and the cache hold it whole and in the
 * server's order; read again, the parts the cache stored last are taken by their bytes' digests,
 * unparsed; a change on the server shows in the next read, only its part parsed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startService } from '../service'
import { startQueryProxy, startUnpagedProxy } from '../../test/servers/unpagedProxy'
import { seedAccount, servedAgents } from '../../test/bench/seed'
import { tempDir, testCore } from '../../test/support/mainCore'
import { wholeReply } from '../../test/support/wholeReply'
import { LIST_PAGE } from './api/listPaging'
import { LARGE_ANSWER_BYTES } from './api/largeAnswer'
import type { AnswerPiece, IpcReply } from '../shared/ipc'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  vi.restoreAllMocks()
  while (cleanup.length) await cleanup.pop()?.()
})

/** `fn`, and the characters `JSON.parse` was given meanwhile. */
async function parsing<T>(fn: () => Promise<T>): Promise<{ value: T; parsed: number }> {
  let parsed = 0
  const parse = JSON.parse.bind(JSON)
  const spy = vi
    .spyOn(JSON, 'parse')
    .mockImplementation((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
      parsed += text.length
      return parse(text, reviver) as unknown
    })
  try {
    return { value: await fn(), parsed }
  } finally {
    spy.mockRestore()
  }
}

/**
 * 7,500 agents listed through the core from the embedded service, as a server without paging
 * (`unpaged`: one answer, handed on in groups of LIST_PAGE, then LATER_GROUP) or paged (pages of
 * LIST_PAGE): listed, listed again unchanged, and again with one agent of the second part renamed.
 * `changedShare`: the part of the answer that holds it (the bytes parsed then).
 */
async function longList(unpaged: boolean, changedShare: number) {
  const service = await startService({
    dataDir: tempDir('agent-desk-svc-'),
    scryptCost: 16,
    logger: () => {}
  })
  cleanup.push(() => service.close())
  const proxy = unpaged ? await startUnpagedProxy(service.url) : await startQueryProxy(service.url, () => {})
  cleanup.push(() => proxy.close())
  // A page and a half, long enough to be read in steps.
  const seed = await seedAccount(service.url, { agents: LIST_PAGE + LIST_PAGE / 2, tags: 2 })
  const expected = await servedAgents(service.url, seed.token)
  expect(expected).toHaveLength(LIST_PAGE + LIST_PAGE / 2)
  expect(Buffer.byteLength(JSON.stringify(expected))).toBeGreaterThan(LARGE_ANSWER_BYTES)

  const t = testCore({ fetchTimeoutMs: 60_000 })
  cleanup.push(() => t.core.dispose())
  const profile = await t.call('profiles.save', { name: 'Long lists', baseUrl: proxy.url })
  await t.call('session.signIn', { profileId: profile.id, email: seed.email, password: seed.password })

  const ids = (list: { data: { id: string }[] }) => list.data.map((a) => a.id)
  /**
   * Main's answer to `channel`, every piece taken as main gives it (a list in one answer leaves as
   * it comes), read once it is all there (as the page reads it: not main's work).
   */
  const main = async (channel: 'agents.list') => {
    const reply = await t.core.invoke(channel, undefined)
    const pieces: IpcReply<unknown>[] = []
    for (let more = reply.ok ? reply.more : undefined; more;) {
      const piece = await t.core.invoke('answers.next', { id: more.id })
      pieces.push(piece)
      if (!piece.ok || (piece.value as AnswerPiece).done) break
    }
    return async () => {
      const r = await wholeReply(reply, async () => pieces.shift() as IpcReply<unknown>)
      if (!r.ok) throw new Error(r.error.message)
      return r.value as { data: { id: string; name: string }[] }
    }
  }
  const renameOnServer = async (id: string, name: string) =>
    (
      await fetch(`${service.url}/api/v1/agents/${id}`, {
        method: 'PATCH',
        headers: { Authorization: `Bearer ${seed.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name })
      })
    ).status
  const asked = () => proxy.forwarded.filter((f) => f.startsWith('/api/v1/agents'))
  const first = await t.call('agents.list')
  expect(first.source).toBe('network')
  expect(ids(first)).toEqual(expected.map((a) => a.id))
  // Without paging, one request, the whole list in it, its order kept across the groups; paged,
  // two pages.
  expect(asked()).toEqual(
    unpaged
      ? ['/api/v1/agents']
      : [`/api/v1/agents?skip=0&take=${LIST_PAGE}`, `/api/v1/agents?skip=${LIST_PAGE}&take=${LIST_PAGE}`]
  )
  expect(ids(await t.call('agents.list', { cacheOnly: true }))).toEqual(ids(first))

  // The same answer again: its parts are those the cache stored last, taken by their bytes'
  // digests with none of their items parsed.
  const bytes = Buffer.byteLength(JSON.stringify({ success: true, data: expected }))
  const { value: gather, parsed } = await parsing(() => main('agents.list'))
  expect(parsed).toBeLessThan(bytes / 100)
  expect((await gather()).data).toEqual(first.data)

  // An agent past the first part renamed on the server: the next read shows it, and the cache keeps it.
  const renamed = expected[LIST_PAGE + 10] as { id: string }
  expect(await renameOnServer(renamed.id, 'Renamed on the server')).toBe(200)
  // The parts without it are still known: only the one holding it is parsed.
  const { value: gatherChanged, parsed: parsedChanged } = await parsing(() => main('agents.list'))
  const changed = await gatherChanged()
  expect(parsedChanged).toBeGreaterThan(bytes * changedShare * 0.8)
  expect(parsedChanged).toBeLessThan(bytes * changedShare * 1.5)
  expect(changed.data.find((a) => a.id === renamed.id)?.name).toBe('Renamed on the server')
  expect(ids(changed)).toEqual(ids(first))
  const cached = await t.call('agents.get', { id: renamed.id, cacheOnly: true })
  expect(cached.data.name).toBe('Renamed on the server')

  // Then one in the first part (of LIST_PAGE), to a name of the same length (its part's bytes as
  // long as before): that part is parsed, the others are still known (5,000 of 7,500 parsed).
  const early = expected[10] as { id: string; name: string }
  const sameLength = `${early.name.startsWith('Z') ? 'Y' : 'Z'}${early.name.slice(1)}`
  expect(await renameOnServer(early.id, sameLength)).toBe(200)
  const { value: gatherFirst, parsed: parsedFirst } = await parsing(() => main('agents.list'))
  expect(parsedFirst).toBeGreaterThan(bytes * 0.5)
  expect(parsedFirst).toBeLessThan(bytes * 0.8)
  expect((await gatherFirst()).data.find((a) => a.id === early.id)?.name).toBe(sameLength)
}

describe('a long list', () => {
  it('from a server without paging: cached whole, in order, as its groups are read; the same again unparsed; a change shows', async () => {
    // The groups: the first of LIST_PAGE agents, then of LATER_GROUP (1,000 of 7,500 parsed).
    await longList(true, 1_000 / 7_500)
  }, 120_000)

  it('a page at a time: cached whole, in order; the same pages again unparsed; a change shows', async () => {
    // The second page: 2,500 of 7,500.
    await longList(false, 2_500 / 7_500)
  }, 120_000)
})
