/**
 * A long list from a server without paging (as the origin answers: the whole list in one answer)
 * goes to the cache a page's worth at a time as it is read (api/listGroups.ts): through the core,
 * the list and the cache hold it whole and in the server's order, read again it is the same, and
 * a change on the server shows in the next read.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startService } from '../service'
import { startUnpagedProxy } from '../../test/servers/unpagedProxy'
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

describe('a long list from a server without paging', () => {
  it('is listed and cached whole, in order, as its pages are read; the same again; a change shows', async () => {
    const service = await startService({
      dataDir: tempDir('agent-desk-svc-'),
      scryptCost: 16,
      logger: () => {}
    })
    cleanup.push(() => service.close())
    const proxy = await startUnpagedProxy(service.url)
    cleanup.push(() => proxy.close())
    // A page and a half: two groups of one answer, long enough to be read in steps.
    const seed = await seedAccount(service.url, { agents: LIST_PAGE + LIST_PAGE / 2, tags: 2 })
    const expected = await servedAgents(service.url, seed.token)
    expect(expected).toHaveLength(LIST_PAGE + LIST_PAGE / 2)
    expect(Buffer.byteLength(JSON.stringify(expected))).toBeGreaterThan(LARGE_ANSWER_BYTES)

    const t = testCore({ fetchTimeoutMs: 60_000 })
    cleanup.push(() => t.core.dispose())
    const profile = await t.call('profiles.save', { name: 'Origin-like', baseUrl: proxy.url })
    await t.call('session.signIn', { profileId: profile.id, email: seed.email, password: seed.password })

    const ids = (list: { data: { id: string }[] }) => list.data.map((a) => a.id)
    /**
     * Main's answer to `channel`, every piece taken as main gives it (it leaves as it comes), read
     * once it is all there (as the page reads it: not main's work).
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
    const first = await t.call('agents.list')
    expect(first.source).toBe('network')
    expect(ids(first)).toEqual(expected.map((a) => a.id))
    // One request, the whole list in it, its order kept across the groups.
    expect(proxy.forwarded.filter((f) => f.startsWith('/api/v1/agents'))).toHaveLength(1)
    expect(ids(await t.call('agents.list', { cacheOnly: true }))).toEqual(ids(first))

    // The same answer again: its pages are those the cache stored last, taken by their bytes'
    // digests with none of their items parsed.
    const bytes = Buffer.byteLength(JSON.stringify({ success: true, data: expected }))
    const { value: gather, parsed } = await parsing(() => main('agents.list'))
    expect(parsed).toBeLessThan(bytes / 100)
    expect((await gather()).data).toEqual(first.data)

    // An agent past the first group renamed on the server: the next read shows it, and the cache keeps it.
    const renamed = expected[LIST_PAGE + 10] as { id: string }
    const patch = await fetch(`${service.url}/api/v1/agents/${renamed.id}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${seed.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Renamed on the server' })
    })
    expect(patch.status).toBe(200)
    // The groups without it are still known (the first of LIST_PAGE agents, then of LATER_GROUP):
    // only the group holding it is parsed, 1,000 of 7,500 agents.
    const { value: gatherChanged, parsed: parsedChanged } = await parsing(() => main('agents.list'))
    const changed = await gatherChanged()
    expect(parsedChanged).toBeGreaterThan(bytes / 10)
    expect(parsedChanged).toBeLessThan(bytes / 5)
    expect(changed.data.find((a) => a.id === renamed.id)?.name).toBe('Renamed on the server')
    expect(ids(changed)).toEqual(ids(first))
    const cached = await t.call('agents.get', { id: renamed.id, cacheOnly: true })
    expect(cached.data.name).toBe('Renamed on the server')
  }, 120_000)
})
