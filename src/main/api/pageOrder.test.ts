/**
 * A paged list whose pages the taker knows by their digest (pageOrder.ts), against the embedded
 * service and a scripted server: the next page is asked for while the taker takes this one, where
 * it knew that page too; a page asked for so and then not used (the page before it came short, or
 * longer than asked for) is never offered.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { seededService } from '../../../test/support/seededService'
import { startQueryProxy } from '../../../test/servers/unpagedProxy'
import { Agent } from '../../shared/agent'
import { memoryCapabilityStore } from './client'
import { endpoints, type PageTaker } from './endpoints'
import type { KnownPages } from './listGroups'
import { startScriptedServer } from '../../../test/servers/scriptedServer'
import { wideAgent } from '../../../test/support/wideAgents'
import { LIST_PAGING } from './listPaging'
import { createTransport, type Transport } from './transport'

const PAGE = 5
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

/** The embedded service with `agents` agents, behind a proxy that notes each query; a lister. */
async function pagedList(agents: number) {
  const seeded = await seededService('order@example.com', agents)
  cleanup.push(() => seeded.close())
  const { api, token } = seeded
  const proxy = await startQueryProxy(seeded.service.url, () => {})
  cleanup.push(() => proxy.close())
  const caps = memoryCapabilityStore()
  const t = createTransport({
    baseUrl: proxy.url,
    getToken: () => token,
    capabilities: caps,
    listPageSize: PAGE
  })
  const list = async (known?: Knowing) => {
    proxy.forwarded.length = 0
    return listThrough(t, known)
  }
  const asked = () => proxy.forwarded.map((f) => new URL(f, 'http://x').searchParams.get('skip'))
  return { api, caps, list, asked }
}

type Handed = { ids: string[]; digest: string | undefined }[]
/** A taker's knowledge of pages (KnownPages), told of each page handed to it; and each offer. */
type Knowing = KnownPages & { offered: string[]; handedOne(): void }

/** The list through `pages`: each page handed on (its items' ids and digest). */
async function listThrough(t: Transport, known?: Knowing): Promise<Handed> {
  const handed: Handed = []
  const taker: PageTaker<{ id: string }> = async (items, page) => {
    handed.push({ ids: items.map((a) => a.id), digest: page.digest })
    known?.handedOne()
  }
  if (known) taker.known = known
  await endpoints(t).pages('agents.list', '/agents', Agent, 'agent', undefined, taker)
  return handed
}

/**
 * A taker that knows the pages it was handed before (by their digests, in order): as the cache
 * does, it takes the page at the place it is at (pages taken or handed to it so far) by that
 * page's digest. Each offer noted.
 */
function knowing(pages: Handed): Knowing {
  const offered: string[] = []
  let next = 0
  return {
    offered,
    handedOne: () => void next++,
    expects: (k = next) => k < pages.length,
    take: async (digest) => {
      offered.push(digest)
      const page = pages[next]
      if (page?.digest !== digest) return null
      next++
      return { count: page.ids.length, first: page.ids[0] }
    }
  }
}

describe('the pages of a list the taker knows', () => {
  it('asks for the next page while the taker takes this one, where it knew that page too', async () => {
    const l = await pagedList(4 * PAGE)
    const first = await l.list()
    // Four full pages, then the empty one that ends the list.
    expect(first.map((p) => p.ids.length)).toEqual([PAGE, PAGE, PAGE, PAGE, 0])
    expect(l.caps.get(LIST_PAGING)).toBe('offered')
    const known = knowing(first)
    // The taker holds page one until the server was asked for page two.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const take = known.take
    known.take = async (digest, of) => {
      if (known.offered.length === 0) await held
      return take(digest, of)
    }
    const listed = l.list(known)
    for (let waited = 0; !l.asked().includes(String(PAGE)) && waited < 5000; waited += 10) await sleep(10)
    const askedWhileHeld = l.asked()
    release()
    const handed = await listed
    expect(askedWhileHeld).toEqual(['0', String(PAGE)])
    // Every page taken by its digest, none handed on parsed, each asked for once.
    expect(handed).toEqual([])
    expect(known.offered).toEqual(first.map((p) => p.digest))
    expect(l.asked()).toEqual(['0', '5', '10', '15', '20'])
  }, 30_000)

  it('a page asked for ahead and not used (the page before it came short) is not offered', async () => {
    const l = await pagedList(4 * PAGE)
    const first = await l.list()
    const known = knowing(first)
    // The oldest agents (the last pages, newest first) deleted: page three comes short.
    const all = await l.api.agents.list()
    for (const a of all.slice(2 * PAGE + 2)) await l.api.agents.delete(a.id)
    const handed = await l.list(known)
    for (let waited = 0; !l.asked().includes('15') && waited < 5000; waited += 10) await sleep(10)
    // Pages one and two taken; three new (its items never read as themselves: not offered), so
    // parsed, and short; four, asked for ahead as three's turn came, dropped: never offered, though
    // its bytes (an empty list) are those of the page that ended the list before.
    expect(known.offered).toEqual([first[0]?.digest, first[1]?.digest])
    expect(handed.map((p) => p.ids)).toEqual([all.slice(2 * PAGE, 2 * PAGE + 2).map((a) => a.id)])
    expect(l.asked()).toEqual(['0', '5', '10', '15'])
  }, 30_000)

  it('a page asked for ahead at a place the list did not reach (the page before it came longer) is never offered', async () => {
    const server = await startScriptedServer()
    cleanup.push(() => server.close())
    const page = (from: number, n: number) =>
      server.json(200, { success: true, data: Array.from({ length: n }, (_, i) => wideAgent(from + i)) })
    const t = createTransport({
      baseUrl: server.url,
      getToken: () => 'tok-123456789',
      capabilities: memoryCapabilityStore(),
      listPageSize: PAGE
    })
    // Pages of 5, 5 and 2: the server then known to page.
    server.queue.push(page(0, 5), page(5, 5), page(10, 2))
    const first = await listThrough(t)
    expect(first.map((p) => p.ids.length)).toEqual([5, 5, 2])
    // Again: page one the same; page two longer than asked for (7: a new item, say), so the list
    // goes on at 12, not at 10 where page three was asked for ahead. The answer there has the
    // bytes of the last list's page three, which the taker, at that place, would take.
    server.requests.length = 0
    server.queue.push(page(0, 5), page(5, 7), page(10, 2), page(12, 1))
    const known = knowing(first)
    const handed = await listThrough(t, known)
    expect(server.requests.map((r) => new URLSearchParams(r.query).get('skip'))).toEqual([
      '0',
      '5',
      '10',
      '12'
    ])
    expect(known.offered).toEqual([first[0]?.digest])
    expect(handed.map((p) => p.ids)).toEqual([Array.from({ length: 7 }, (_, i) => `a${5 + i}`), ['a12']])
  }, 30_000)
})
