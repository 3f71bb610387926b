/**
 * A long list handed on a group at a time as its answer is read (largeAnswer.ts' `GroupSink`,
 * listGroups.ts): the groups are the array, in order, each read from its own bytes; through the
 * transport they reach `pages`' taker before the answer has ended, masked and marked a group at a
 * time; a request that fails once a group went on is not sent again.
 */
import fc from 'fast-check'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { startScriptedServer, type ScriptedServer } from '../../../test/servers/scriptedServer'
import { wideAgent } from '../../../test/support/wideAgents'
import { Agent } from '../../shared/agent'
import { MASK } from '../mask'
import { memoryCapabilityStore } from './client'
import { endpoints, type ListPage, type PageTaker } from './endpoints'
import { LIST_PAGING } from './listPaging'
import type { KnownPages } from './listGroups'
import { ArrivingBody } from './answerBytes'
import { LARGE_ANSWER_BYTES, parseJsonInSteps, type GroupSink } from './largeAnswer'
import { createTransport } from './transport'

const noYield = () => Promise.resolve()
afterEach(() => void vi.restoreAllMocks())

/** The texts `JSON.parse` is given from here on (what was parsed). */
function parsedTexts(): string[] {
  const texts: string[] = []
  const parse = JSON.parse.bind(JSON)
  vi.spyOn(JSON, 'parse').mockImplementation((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    texts.push(text)
    return parse(text, reviver) as unknown
  })
  return texts
}
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** A sink that keeps the groups it is handed (of `data` after `success: true`, by default). */
function keeper(
  size: number,
  wants: GroupSink['wants'] = (k, before) => k === 'data' && before.success === true
) {
  const groups: { items: unknown[]; text: string; last: boolean }[] = []
  const sink: GroupSink = {
    size,
    wants,
    take: async (items, text, last) =>
      void groups.push({ items, text: Buffer.concat(text).toString('utf8'), last })
  }
  return { sink, groups }
}

/** Reads `text` as it arrives in chunks of the given sizes, a turn of the loop apart. */
async function readArriving(
  text: string,
  sizes: number[],
  batchBytes: number,
  sink: GroupSink,
  gather: number
) {
  const buf = Buffer.from(text)
  const body = new ArrivingBody(buf.length, gather)
  const reading = parseJsonInSteps(body, noYield, batchBytes, sink)
  for (let at = 0, k = 0; at < buf.length; k++) {
    const n = Math.max(1, sizes[k % sizes.length] ?? 1)
    body.add(buf.subarray(at, at + n))
    at += n
    await new Promise((resolve) => setImmediate(resolve))
  }
  body.end()
  return reading
}

/** `readArriving` (nothing gathered) of an envelope: its value, and the texts JSON.parse was given. */
async function readParsed(text: string, sizes: number[], batchBytes: number, sink: GroupSink) {
  const parsed = parsedTexts()
  const read = await readArriving(text, sizes, batchBytes, sink, 0)
  vi.restoreAllMocks()
  return { value: (read as { value: { data: unknown[] } }).value, parsed }
}

describe("a root object's long array, handed on in groups as it is read", () => {
  it('goes on in groups of `size` that make up the array, each read from its own bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.jsonValue(), { maxLength: 60 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 80 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 64 }),
        async (data, size, batchBytes, sizes, gather) => {
          const text = JSON.stringify({ success: true, data, after: [1] }, null, ' ')
          const { sink, groups } = keeper(size)
          const read = await readArriving(text, sizes, batchBytes, sink, gather)
          if (data.length <= size) {
            expect(groups).toEqual([])
            expect(read).toEqual({ value: JSON.parse(text) })
            return
          }
          expect(groups.flatMap((g) => g.items)).toEqual(JSON.parse(JSON.stringify(data)))
          const lengths = groups.map((g) => g.items.length)
          expect(lengths).toEqual(lengths.map((_, k) => Math.min(size, data.length - k * size)))
          expect(groups.map((g) => g.last)).toEqual(groups.map((_, i) => i === groups.length - 1))
          for (const g of groups) expect(JSON.parse(`[${g.text}]`)).toEqual(g.items)
          // The array's value is its last group; the members around it are read as ever.
          const value = (read as { value: { data: unknown[]; after: unknown } }).value
          expect(value.data).toBe(groups.at(-1)?.items)
          expect(value.after).toEqual([1])
        }
      ),
      { numRuns: 300 }
    )
  })

  it("lets go of an arriving answer's segments before the group being read", async () => {
    const data = Array.from({ length: 100 }, (_, i) => ({ id: i, name: 'x'.repeat(50) }))
    const text = JSON.stringify({ success: true, data })
    const bytes = Buffer.from(text)
    const body = new ArrivingBody(bytes.length, 0) // every chunk kept as it came
    for (let at = 0; at < bytes.length; at += 256) body.add(bytes.subarray(at, at + 256))
    body.end()
    const { sink, groups } = keeper(10)
    const read = await parseJsonInSteps(body, noYield, 64, sink)
    expect(groups.flatMap((g) => g.items)).toEqual(data)
    expect((read?.value as { data: unknown[] }).data).toEqual(data.slice(90))
    // ~7 kB in chunks of 256 bytes: all but those of the last group let go.
    const kept = body.segs.filter((seg) => seg.length > 0).length
    expect(kept).toBeLessThanOrEqual(Math.ceil(JSON.stringify(data.slice(90)).length / 256) + 1)
    expect(() => body.pieces).toThrow()
  })

  it('does not go on when the sink does not want it, nor in parts when no longer than a group', async () => {
    const data = Array.from({ length: 30 }, (_, i) => ({ i }))
    for (const value of [
      { data, success: true }, // `success` after it: not known to be a success when it begins
      { success: true, inner: { data } }, // not the root's own
      { success: true, data: data.slice(0, 10) } // ten: a group's size
    ]) {
      const { sink, groups } = keeper(10)
      expect(await parseJsonInSteps(Buffer.from(JSON.stringify(value)), noYield, 16, sink)).toEqual({ value })
      expect(groups).toEqual([])
    }
    const { sink, groups } = keeper(10)
    expect(await parseJsonInSteps(Buffer.from(JSON.stringify(data)), noYield, 16, sink)).toEqual({
      value: data
    })
    expect(groups).toEqual([]) // a root array
  })

  it('a member met again after it went on is not read: what went on cannot be taken back', async () => {
    const text = `{"success":true,"data":${JSON.stringify(Array.from({ length: 30 }, (_, i) => i))},"data":[]}`
    const { sink, groups } = keeper(10)
    expect(await parseJsonInSteps(Buffer.from(text), noYield, 8, sink)).toBeUndefined()
    expect(groups.length).toBeGreaterThan(0)
  })

  it('a group the sink knows by its bytes is taken as it is and never parsed; the others are parsed and taken', async () => {
    type Mode = 'parsed' | 'asked' | 'known'
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 80 }),
        fc.array(fc.constantFrom<Mode>('parsed', 'asked', 'known'), { minLength: 1, maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 5 }),
        async (n, size, batchBytes, modes, sizes) => {
          vi.restoreAllMocks()
          const data = Array.from({ length: n }, (_, i) => ({ id: `<${i}>`, n: [i] }))
          const text = JSON.stringify({ success: true, data }, null, ' ')
          const modeOf = (g: number) => modes[g % modes.length] as Mode
          let group = 0 // the group being read
          const asked: { g: number; text: string; count: number | undefined; last: boolean }[] = []
          const taken: { g: number; items: unknown[]; last: boolean }[] = []
          const sink: GroupSink = {
            size,
            wants: (k, before) => k === 'data' && before.success === true,
            expects: () => modeOf(group) !== 'parsed',
            known: async (bytes, count, last) => {
              asked.push({ g: group, text: Buffer.concat(bytes).toString('utf8'), count, last })
              if (modeOf(group) !== 'known') return false
              group++
              return true
            },
            take: async (items, _text, last) => {
              taken.push({ g: group++, items, last })
            }
          }
          const { value, parsed } = await readParsed(text, sizes, batchBytes, sink)
          const groups = n > size ? Math.ceil(n / size) : 0
          const slice = (g: number) => data.slice(g * size, (g + 1) * size)
          if (groups === 0) {
            expect(asked).toEqual([])
            expect(taken).toEqual([])
            expect(value.data).toEqual(data)
            return
          }
          for (let g = 0; g < groups; g++) {
            const mode = modeOf(g)
            const last = g === groups - 1
            const ask = asked.find((a) => a.g === g)
            if (mode === 'parsed') expect(ask).toBeUndefined()
            else {
              expect(ask).toMatchObject({ g, count: slice(g).length, last })
              expect(JSON.parse(`[${ask?.text}]`)).toEqual(slice(g)) // its own bytes
            }
            const take = taken.find((t) => t.g === g)
            if (mode === 'known') {
              expect(take).toBeUndefined()
              // Not one of its items was parsed.
              for (const item of slice(g)) expect(parsed.some((p) => p.includes(`"${item.id}"`))).toBe(false)
            } else expect(take).toEqual({ g, items: slice(g), last })
          }
          expect(value.data).toEqual(modeOf(groups - 1) === 'known' ? [] : slice(groups - 1))
        }
      ),
      { numRuns: 300 }
    )
  })

  it('a group the sink knows by its length is asked about before it is scanned; a wrong length is scanned then', async () => {
    // 'parsed': not expected; 'sized': its own length; 'changed': its own length, not known
    // (another group of that length); 'off': a wrong length.
    type Mode = 'parsed' | 'sized' | 'changed' | 'off'
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 50 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 80 }),
        fc.array(fc.constantFrom<Mode>('parsed', 'sized', 'changed', 'off'), { minLength: 1, maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: -3, max: 3 }).filter((d) => d !== 0),
        async (n, size, batchBytes, modes, sizes, off) => {
          fc.pre(n > size)
          vi.restoreAllMocks()
          const data = Array.from({ length: n }, (_, i) => ({ id: `<${i}>`, n: [i] }))
          const text = JSON.stringify({ success: true, data }, null, ' ')
          // Each group's own bytes, as a first read hands them on.
          const own: string[] = []
          await readArriving(
            text,
            sizes,
            batchBytes,
            {
              size,
              wants: (k) => k === 'data',
              take: async (_items, bytes) => void own.push(Buffer.concat(bytes).toString('utf8'))
            },
            0
          )
          const modeOf = (g: number) => modes[g % modes.length] as Mode
          let group = 0
          const asked: { g: number; count: number | undefined }[] = []
          const taken: { g: number; items: unknown[]; last: boolean }[] = []
          const sink: GroupSink = {
            size,
            wants: (k) => k === 'data',
            expects: () => modeOf(group) !== 'parsed',
            knownBytes: () => {
              const bytes = Buffer.byteLength(own[group] as string)
              return modeOf(group) === 'off' ? Math.max(0, bytes + off) : bytes
            },
            known: async (bytes, count, last) => {
              asked.push({ g: group, count })
              const same = Buffer.concat(bytes).toString('utf8') === own[group]
              if (modeOf(group) !== 'sized' || !same) return false
              expect(count).toBeUndefined()
              expect(last).toBe(group === own.length - 1)
              group++
              return true
            },
            take: async (items, _text, last) => {
              taken.push({ g: group++, items, last })
            }
          }
          const { value, parsed } = await readParsed(text, sizes, batchBytes, sink)
          const slice = (g: number) => data.slice(g * size, (g + 1) * size)
          for (let g = 0; g < own.length; g++) {
            const mode = modeOf(g)
            const last = g === own.length - 1
            const take = taken.find((t) => t.g === g)
            if (mode === 'sized') {
              // Asked about by its length alone, taken, none of it parsed.
              expect(asked.filter((a) => a.g === g)).toEqual([{ g, count: undefined }])
              expect(take).toBeUndefined()
              for (const item of slice(g)) expect(parsed.some((p) => p.includes(`"${item.id}"`))).toBe(false)
            } else expect(take).toEqual({ g, items: slice(g), last })
            if (mode === 'changed') expect(asked.filter((a) => a.g === g)).toEqual([{ g, count: undefined }])
          }
          expect(value.data).toEqual(modeOf(own.length - 1) === 'sized' ? [] : slice(own.length - 1))
        }
      ),
      { numRuns: 300 }
    )
  })

  it('what the taker throws ends the reading and is thrown', async () => {
    const text = JSON.stringify({ success: true, data: Array.from({ length: 30 }, (_, i) => i) })
    const failure = new Error('taker failed')
    let taken = 0
    const sink: GroupSink = {
      size: 5,
      wants: () => true,
      take: async () => {
        if (++taken === 2) throw failure
      }
    }
    await expect(parseJsonInSteps(Buffer.from(text), noYield, 4, sink)).rejects.toBe(failure)
    expect(taken).toBe(2)
  })
})

describe('a whole list in one long answer, through the transport to `pages`', () => {
  let server: ScriptedServer
  beforeAll(async () => {
    server = await startScriptedServer()
  })
  afterAll(async () => server.close())

  const token = 'tok-list-groups-123456'
  /** ~3 × LARGE_ANSWER_BYTES. */
  const count = Math.ceil((3 * LARGE_ANSWER_BYTES) / 250)
  const PAGE = 1000
  const bodyOf = (items: unknown[]) => JSON.stringify({ success: true, data: items })

  /**
   * Lists through `pages` (paging not yet known) while the server sends `body` up to `at` (a
   * share of its bytes), then the rest or a cut once `release` is called.
   */
  function list(
    body: string,
    at: number,
    onPage?: (n: number) => void,
    known?: KnownPages,
    caps = memoryCapabilityStore()
  ) {
    let release: (next: 'end' | 'cut') => void = () => undefined
    const then = new Promise<'end' | 'cut'>((resolve) => (release = resolve))
    server.queue.push({ held: body, until: Math.floor(Buffer.byteLength(body) * at), then, status: 200 })
    const t = createTransport({
      baseUrl: server.url,
      getToken: () => token,
      capabilities: caps,
      listPageSize: PAGE
    })
    const pages: { items: unknown[]; page: ListPage }[] = []
    let first: () => void = () => undefined
    const firstCame = new Promise<void>((resolve) => (first = resolve))
    const requestsBefore = server.requests.length
    const taker: PageTaker<unknown> = async (items, page) => {
      pages.push({ items: [...items], page })
      first()
      onPage?.(pages.length)
    }
    if (known) taker.known = known
    const run = endpoints(t).pages('agents.list', '/agents', Agent, 'agent', undefined, taker)
    run.catch(() => undefined)
    return { caps, pages, firstCame, release, run, requests: () => server.requests.length - requestsBefore }
  }

  it("reaches the taker a page's worth at a time before the answer has ended, the list in order", async () => {
    const items = Array.from({ length: count }, (_, i) => wideAgent(i))
    const l = list(bodyOf(items), 0.6)
    const cameBeforeEnd = await Promise.race([l.firstCame.then(() => true), sleep(5000).then(() => false)])
    l.release('end')
    await l.run
    expect(cameBeforeEnd).toBe(true)
    expect(l.pages.flatMap((p) => p.items)).toEqual(items)
    expect(l.pages.length).toBeGreaterThan(10)
    for (const p of l.pages.slice(0, -1)) expect(p.items).toHaveLength(PAGE)
    for (const p of l.pages) expect(p.page).toMatchObject({ whole: true, digest: expect.any(String) })
    expect(l.caps.get(LIST_PAGING)).toBe('not_offered')
    expect(l.requests()).toBe(1)
  })

  it('gives the same pages and digests however the bytes arrive; one item changed changes its page alone', async () => {
    const items = Array.from({ length: count }, (_, i) => wideAgent(i))
    const read = async (body: string, at: number) => {
      const l = list(body, at)
      l.release('end')
      await l.run
      return l.pages.map((p) => ({ length: p.items.length, digest: p.page.digest }))
    }
    const early = await read(bodyOf(items), 0.1)
    expect(early.length).toBeGreaterThan(10)
    expect(await read(bodyOf(items), 0.9)).toEqual(early)
    const changed = items.map((a, i) => (i === 2500 ? { ...a, name: 'Renamed' } : a))
    const after = await read(bodyOf(changed), 0.5)
    const differ = after.flatMap((p, k) => (p.digest !== early[k]?.digest ? [k] : []))
    expect(differ).toHaveLength(1)
  })

  it('a page the taker knows by its digest is taken unparsed and not handed on; one changed is', async () => {
    const items = Array.from({ length: count }, (_, i) => wideAgent(i))
    // A taker that knows the pages whose digests it was handed before.
    const digests = new Set<string>()
    const took: { digest: string; count: number }[] = []
    let asked = 0
    const known: KnownPages = {
      expects: () => ++asked > 0 && digests.size > 0,
      take: async (digest, { count: n = 0 }) =>
        digests.has(digest) && took.push({ digest, count: n }) ? { count: n, first: undefined } : null
    }
    // The server found not to page by the first read (its answer went on in groups): asked whole next.
    const caps = memoryCapabilityStore()
    const read = async (body: string) => {
      took.length = 0
      const l = list(body, 0.5, undefined, known, caps)
      l.release('end')
      const parsed = parsedTexts()
      await l.run
      vi.restoreAllMocks()
      expect(l.requests()).toBe(1)
      expect(l.caps.get(LIST_PAGING)).toBe('not_offered')
      return { l, parsed: parsed.reduce((n, p) => n + p.length, 0) }
    }
    const body = bodyOf(items)
    const first = await read(body)
    // Asked with paging (not yet known to be refused), the answer could have been a page: asked
    // once whether it was one the taker knows (none yet), so it went on in groups as it came.
    expect(asked).toBe(1)
    expect(first.l.pages.flatMap((p) => p.items)).toEqual(items)
    for (const p of first.l.pages) digests.add(p.page.digest as string)
    expect(first.parsed).toBeGreaterThan(body.length * 0.9)

    // The same bytes: every page taken by its digest, none parsed nor handed on.
    const again = await read(body)
    expect(asked).toBeGreaterThan(0)
    expect(again.l.pages).toEqual([])
    expect(took).toEqual(first.l.pages.map((p) => ({ digest: p.page.digest, count: p.items.length })))
    expect(again.parsed).toBeLessThan(body.length * 0.01)

    // One item renamed: its page alone is parsed and handed on, the others taken as known.
    const changed = items.map((a, i) => (i === 2500 ? { ...a, name: 'Renamed' } : a))
    const third = await read(bodyOf(changed))
    expect(third.l.pages.map((p) => p.items)).toEqual([changed.slice(2 * PAGE, 3 * PAGE)])
    expect(took).toHaveLength(first.l.pages.length - 1)
    expect(third.parsed).toBeLessThan(body.length * 0.5)
  })

  it('a page that holds the token is masked and not marked; the others are marked', async () => {
    const items = Array.from({ length: count }, (_, i) => wideAgent(i, i === 2500 ? token : ''))
    const l = list(bodyOf(items), 0.5)
    l.release('end')
    await l.run
    expect(l.pages.length).toBeGreaterThan(10)
    const masked = l.pages.filter((p) => JSON.stringify(p.items).includes(MASK))
    expect(masked).toHaveLength(1)
    expect(masked[0]?.page.digest).toBeUndefined()
    expect(l.pages.filter((p) => p.page.digest === undefined)).toHaveLength(1)
    expect(JSON.stringify(l.pages.map((p) => p.items))).not.toContain(token)
  })

  it('an answer cut once pages went on fails the list, is not asked again, and hands on no more', async () => {
    const l = list(bodyOf(Array.from({ length: count }, (_, i) => wideAgent(i))), 0.5)
    await l.firstCame
    l.release('cut')
    await expect(l.run).rejects.toMatchObject({ kind: 'network' })
    const handed = l.pages.length
    await sleep(50)
    expect(l.pages.length).toBe(handed)
    expect(handed).toBeLessThan(count / PAGE)
    expect(l.requests()).toBe(1)
  })

  it('what the taker throws fails the list, and the answer is not asked again', async () => {
    const failure = new Error('the cache could not take it')
    const l = list(bodyOf(Array.from({ length: count }, (_, i) => wideAgent(i))), 1, (n) => {
      if (n === 2) throw failure
    })
    l.release('end')
    await expect(l.run).rejects.toBe(failure)
    expect(l.pages).toHaveLength(2)
    expect(l.requests()).toBe(1)
  })
})
