/**
 * Long lists leave main in pieces (answerPieces.ts), against the embedded service on 127.0.0.1:
 * - a list longer than a piece answers its first piece with `more`; `answers.next` gives the rest
 *   in order, then the answer is gone; a list still being read leaves as it is read, in pieces
 *   that grow;
 * - the window API (buildDeskApi, as the preload and the harness build it) hands the page the whole
 *   list, the same as one answer would;
 * - a waiting answer is dropped when another session begins (or its token changes), when unasked for too long, and when
 *   more answers wait than are kept; it answers kind 'not_found' then;
 * - short lists and other answers go out as they are.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { startService } from '../service'
import type { Agent } from '../shared/agent'
import {
  buildDeskApi,
  CHANNELS,
  EVENT_NAMES,
  type AnswerMore,
  type AnswerPiece,
  type DeskApi,
  type Read
} from '../shared/ipc'
import { deskApiOver, signedUp, tempDir, testCore, type TestCore } from '../../test/support/mainCore'
import { AnswerPieces } from './answerPieces'
import { ComingListText, ListText, listValues } from './offline/listText'
import { itemsOfJson } from '../../test/support/wholeReply'
import { withoutUsers } from '../../test/support/withoutUsers'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

const llm = { provider: 'openai', model: 'gpt-4o' }

/** A core (pieces of 3 items) signed up on a fresh service, with `agents` agents. */
async function coreWithAgents(agents: number, opts: Parameters<typeof testCore>[0] = {}) {
  const service = await startService({
    dataDir: tempDir('agent-desk-svc-'),
    scryptCost: 16,
    logger: () => {}
  })
  cleanup.push(() => service.close())
  const t = testCore({ answerPieceItems: 3, ...opts })
  cleanup.push(() => t.core.dispose())
  const profile = await signedUp(t, service.url, 'pieces@example.com')
  const names: string[] = []
  for (let i = 0; i < agents; i++) {
    names.push(`Agent ${i}`)
    await t.call('agents.create', { name: `Agent ${i}`, type: 'REACT', llm })
  }
  return { t, names, profile, service }
}

/** The raw first reply of agents.list (value, `more`, and its first piece's JSON). */
async function firstPiece(
  t: TestCore
): Promise<{ value: Read<Agent[]>; more?: AnswerMore; json?: string[] }> {
  const r = await t.core.invoke('agents.list', {})
  if (!r.ok) throw new Error(r.error.message)
  return {
    value: r.value as Read<Agent[]>,
    ...(r.more ? { more: r.more } : {}),
    ...(r.json ? { json: r.json } : {})
  }
}

async function next(t: TestCore, id: string) {
  const r = await t.core.invoke('answers.next', { id })
  return r.ok ? { piece: r.value as AnswerPiece } : { error: r.error }
}

describe('a long list in pieces', () => {
  it('answers a list held as text with its first piece as JSON and more; answers.next gives the rest, in order, then it is gone', async () => {
    const { t, names } = await coreWithAgents(8)
    const first = await firstPiece(t)
    expect(first.value.data).toEqual([])
    expect(first.value.source).toBe('network')
    expect(first.more).toEqual({ id: expect.any(String), count: 8 })
    expect(itemsOfJson(first.json ?? [])).toHaveLength(3)
    const id = first.more?.id ?? ''
    const pieces: AnswerPiece[] = []
    for (let i = 0; i < 2; i++) {
      const { piece } = await next(t, id)
      if (piece) pieces.push(piece)
    }
    expect(pieces.map((p) => p.done)).toEqual([false, true])
    const all = [
      ...itemsOfJson(first.json ?? []),
      ...pieces.flatMap((p) => ('json' in p ? itemsOfJson(p.json) : []))
    ] as Agent[]
    expect(pieces.map((p) => ('json' in p ? itemsOfJson(p.json).length : -1))).toEqual([3, 2])
    expect(all.map((x) => x.name).sort()).toEqual([...names].sort())
    expect(new Set(all.map((x) => x.id)).size).toBe(8)
    // Taken: asked again, it is gone.
    expect((await next(t, id)).error).toMatchObject({ kind: 'not_found', code: 'answer_gone' })
  })

  it('reaches the page whole through the window API, in the order of a single answer', async () => {
    const { t } = await coreWithAgents(7)
    const api = deskApiOver(t)
    const whole = await api.agents.list()
    expect(whole.data).toHaveLength(7)
    expect(whole.source).toBe('network')
    // The same list in one answer (a core with pieces larger than it) on the same service.
    const one = testCore({ answerPieceItems: 100 })
    cleanup.push(() => one.core.dispose())
    const profile = await one.call('profiles.save', {
      name: 'One',
      baseUrl: (await t.call('session.get')).profile?.baseUrl ?? ''
    })
    await one.call('session.signIn', {
      profileId: profile.id,
      email: 'pieces@example.com',
      password: 'password-1'
    })
    const single = await one.core.invoke('agents.list', {})
    expect(single.ok && single.more).toBe(undefined)
    // (A list main holds as text comes in the reply's JSON.)
    expect(single.ok && (single.value as Read<Agent[]>).data).toEqual([])
    expect(whole.data).toEqual(single.ok && single.json ? itemsOfJson(single.json) : null)
    // The cache-only read a start asks for early comes whole too, in pieces as its rows are read
    // (offline/listRead.ts), in the same order.
    const cached = await api.agents.list({ cacheOnly: true })
    expect(cached.source).toBe('cache')
    // (With the owner its items embed, which a list from the server leaves without: ownerless.ts.)
    expect(withoutUsers(cached.data)).toEqual(whole.data)
    // A short list goes out as it is.
    const tags = await t.core.invoke('tags.list', {})
    expect(tags).toMatchObject({ ok: true, value: { data: [] } })
    expect(tags.ok && tags.more).toBe(undefined)
  })

  it('is asked for its next piece before the page reads the piece it has (main prepares one while the page parses the other)', async () => {
    const { t, names } = await coreWithAgents(8)
    // What the page does, in order: asks for a piece, or parses one (a piece's JSON it was sent).
    const done: string[] = []
    const sent = new Set<string>()
    const parse = JSON.parse
    const api = buildDeskApi(
      CHANNELS,
      EVENT_NAMES,
      async (channel, input) => {
        if (channel === 'answers.next') done.push('ask')
        const r = await t.core.invoke(channel, input)
        const json = r.ok
          ? channel === 'answers.next'
            ? (r.value as { json?: unknown }).json
            : r.json
          : undefined
        if (Array.isArray(json)) for (const part of json as string[]) sent.add(part)
        return r
      },
      () => () => undefined
    ) as DeskApi
    JSON.parse = (text: string, reviver?: Parameters<typeof parse>[1]) => {
      if (sent.has(text)) done.push('parse')
      return parse(text, reviver) as unknown
    }
    let whole: Read<Agent[]>
    try {
      whole = await api.agents.list()
    } finally {
      JSON.parse = parse
    }
    expect(whole.data.map((a) => a.name).sort()).toEqual([...names].sort())
    // Pieces of 3: the reply's and two more. Each is parsed once the next one has been asked for.
    expect(done).toEqual(['ask', 'parse', 'ask', 'parse', 'parse'])
  })

  it('answers a piece a turn of the event loop after it is joined (where Electron serialises the reply)', async () => {
    const { t } = await coreWithAgents(7)
    const first = await firstPiece(t)
    // The reply comes after what was queued for the next turn when the piece was asked for.
    let turned = false
    setImmediate(() => {
      turned = true
    })
    const r = await t.core.invoke('answers.next', { id: first.more?.id })
    expect(r.ok && (r.value as AnswerPiece).done).toBe(false)
    expect(turned).toBe(true)
  })

  it('is dropped when another session begins', async () => {
    const { t, profile } = await coreWithAgents(5)
    const first = await firstPiece(t)
    await t.call('session.signOut', { clearCache: false })
    await t.call('session.signIn', {
      profileId: profile.id,
      email: 'pieces@example.com',
      password: 'password-1'
    })
    expect((await next(t, first.more?.id ?? '')).error).toMatchObject({
      kind: 'not_found',
      code: 'answer_gone'
    })
    expect((await firstPiece(t)).more?.count).toBe(5)
  })

  it('is dropped when no piece is asked for a while', async () => {
    const { t } = await coreWithAgents(4, { answerIdleMs: 150 })
    const first = await firstPiece(t)
    await new Promise((r) => setTimeout(r, 400))
    expect((await next(t, first.more?.id ?? '')).error).toMatchObject({
      kind: 'not_found',
      code: 'answer_gone'
    })
    // Through the window API: a page that stalls once between pieces asks again and gets it whole;
    // one that stalls every time fails, after asking once again, as an AppError.
    const stalling = (stalls: number) => {
      const asked: string[] = []
      const api = buildDeskApi(
        CHANNELS,
        EVENT_NAMES,
        async (channel, input) => {
          asked.push(channel)
          if (channel === 'answers.next' && stalls-- > 0) await new Promise((r) => setTimeout(r, 400))
          return t.core.invoke(channel, input)
        },
        () => () => undefined
      ) as DeskApi
      return { api, asked }
    }
    const once = stalling(1)
    expect((await once.api.agents.list()).data).toHaveLength(4)
    // (Pieces of 3: the list, held as text, comes in two, the reply's and one more.)
    expect(once.asked).toEqual(['agents.list', 'answers.next', 'agents.list', 'answers.next'])
    const slow = stalling(Infinity).api
    await expect(slow.agents.list()).rejects.toMatchObject({
      name: 'AppError',
      kind: 'not_found',
      code: 'answer_gone'
    })
  })

  it('keeps at most `keep` answers waiting, dropping the one asked least lately', () => {
    const pieces = new AnswerPieces({ pieceItems: 1, keep: 2 })
    const owner = {}
    const ask = (n: number) => pieces.reply({ data: [n, n, n] }, owner).more?.id ?? ''
    const [one, two, three] = [ask(1), ask(2), ask(3)]
    expect(pieces.size).toBe(2)
    expect(() => pieces.next(one, owner)).toThrow(/no longer at hand/)
    expect(pieces.next(three, owner)).toEqual({ items: [3], done: false })
    // 3 was asked for a piece since 2 came: the next answer drops 2, not 3 (being gathered).
    const four = ask(4)
    expect(() => pieces.next(two, owner)).toThrow(/no longer at hand/)
    expect(pieces.next(three, owner)).toEqual({ items: [3], done: true })
    expect(pieces.next(four, owner)).toEqual({ items: [4], done: false })
    // Another owner cannot take it, nor the same one with another token (masked for the first).
    expect(() => pieces.next(four, {})).toThrow(/no longer at hand/)
    expect(pieces.next(four, owner)).toEqual({ items: [4], done: true })
    const masked = pieces.reply({ data: [1, 2] }, owner, 'token-a').more?.id ?? ''
    expect(() => pieces.next(masked, owner, 'token-b')).toThrow(/no longer at hand/)
    // Arrays, class instances and data that is not an array go out as they are.
    expect(pieces.reply([1, 2, 3], owner)).toEqual({ ok: true, value: [1, 2, 3] })
    expect(pieces.reply({ data: 'abc' }, owner)).toEqual({ ok: true, value: { data: 'abc' } })
    pieces.clear()
    expect(pieces.size).toBe(0)
  })
})

describe('a list held as text', () => {
  const texts = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ id: `a${i}`, n: i }))

  it('leaves as JSON, parsed by no one here: whole up to a piece of text, else every piece a JSON array', () => {
    const pieces = new AnswerPieces({ pieceItems: 2, textPieceItems: 4 })
    const owner = {}
    const short = pieces.reply({ data: new ListText(texts(4)), source: 'network' }, owner)
    expect(short).toEqual({
      ok: true,
      value: { data: [], source: 'network' },
      json: [`[${texts(4).join(',')}]`]
    })
    const long = pieces.reply({ data: new ListText(texts(9)), source: 'network' }, owner)
    expect(long.value).toEqual({ data: [], source: 'network' })
    expect(long.more?.count).toBe(9)
    expect(long.json).toEqual([`[${texts(4).join(',')}]`])
    const id = long.more?.id ?? ''
    const got = [pieces.next(id, owner), pieces.next(id, owner)]
    expect(got.map((p) => p.done)).toEqual([false, true])
    expect(got.map((p) => ('json' in p ? itemsOfJson(p.json).length : -1))).toEqual([4, 1])
    expect([
      ...itemsOfJson(long.json ?? []),
      ...got.flatMap((p) => ('json' in p ? itemsOfJson(p.json) : []))
    ]).toEqual(texts(9).map((x) => JSON.parse(x) as unknown))
    expect(() => pieces.next(id, owner)).toThrow(/no longer at hand/)
  })

  it('leaves in parts of about a set length, each a JSON array, an item never split', () => {
    const sizes = [10, 700, 30, 30, 2500, 5, 5, 5, 900, 40]
    const all = sizes.map((n, i) => JSON.stringify({ id: `a${i}`, text: 'é😀x'.repeat(n) }))
    const list = new ListText(all)
    for (const [from, to] of [
      [0, all.length],
      [3, 8],
      [4, 5],
      [2, 2],
      [6, 99]
    ] as const) {
      const parts = list.jsonParts(from, to, 2000)
      expect(itemsOfJson(parts)).toEqual(all.slice(from, to).map((t) => JSON.parse(t) as unknown))
      for (const part of parts) {
        const items = JSON.parse(part) as unknown[]
        // Longer than the set length only when it ends on the item that reached it.
        const withoutLast = items.slice(0, -1).map((x) => JSON.stringify(x).length + 1)
        expect(withoutLast.reduce((a, b) => a + b, 0)).toBeLessThan(2000)
      }
    }
    expect(list.jsonParts(0, all.length, 2000).length).toBeGreaterThan(3)
    expect(list.jsonParts(0, all.length).length).toBe(1)
  })
})

describe('a list still being read (ComingListText)', () => {
  const texts = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => JSON.stringify({ id: `a${from + i}`, n: from + i }))
  /** Whether `p` has settled by the next turn of the event loop. */
  const settled = async (p: Promise<unknown>) => {
    let done = false
    void p.then(
      () => (done = true),
      () => (done = true)
    )
    await new Promise((resolve) => setImmediate(resolve))
    return done
  }

  it('leaves as it is read: the reply holds what was read, each piece what was read since once it is twice the last (at most a piece), then lets it go; done at its end', async () => {
    const pieces = new AnswerPieces({ textPieceItems: 8 })
    const owner = {}
    const list = new ComingListText(20)
    const answered = pieces.answer({ data: list, source: 'cache' }, owner)
    // Nothing read yet: no reply.
    expect(await settled(answered)).toBe(false)
    list.add(texts(0, 2))
    const first = await answered
    expect(first).toEqual({
      ok: true,
      value: { data: [], source: 'cache' },
      more: { id: expect.any(String), count: 20 },
      json: [`[${texts(0, 2).join(',')}]`]
    })
    // What has left is let go (main does not hold the list while the page takes it).
    expect(list.texts).toEqual(['', ''])
    const id = first.more?.id ?? ''
    const one = pieces.nextWhenReady(id, owner)
    list.add(texts(2, 3))
    // Twice the last piece (2): 4 texts since.
    expect(await settled(one)).toBe(false)
    list.add(texts(5, 2))
    expect(await one).toEqual({ json: [`[${texts(2, 5).join(',')}]`], done: false })
    expect(list.texts).toEqual(['', '', '', '', '', '', ''])
    // Twice 5 is more than a piece (8): a piece, and no more than one.
    const two = pieces.nextWhenReady(id, owner)
    list.add(texts(7, 7))
    expect(await settled(two)).toBe(false)
    list.add(texts(14, 2))
    expect(await two).toEqual({ json: [`[${texts(7, 8).join(',')}]`], done: false })
    const three = pieces.nextWhenReady(id, owner)
    expect(await settled(three)).toBe(false)
    // The read ends short of its count (rows went meanwhile): the last piece is what there is.
    list.add(texts(16, 2))
    list.end()
    expect(await three).toEqual({ json: [`[${texts(15, 3).join(',')}]`], done: true })
    await expect(pieces.nextWhenReady(id, owner)).rejects.toThrow(/no longer at hand/)
  })

  it('is read a piece past the piece asked for; dropped, its read ends', async () => {
    const pieces = new AnswerPieces({ textPieceItems: 4, pieceItems: 1, keep: 1 })
    const owner = {}
    const list = new ComingListText(20)
    list.add(texts(0, 4))
    // Unanswered, it is read as fast as it comes.
    expect(await list.room()).toBe(true)
    const first = await pieces.answer({ data: list, source: 'cache' }, owner)
    const id = first.more?.id ?? ''
    // Answered in pieces: read a piece past what was asked (its first text), then it waits.
    expect(await list.room()).toBe(true)
    list.add(texts(4, 1))
    const waits = list.room()
    expect(await settled(waits)).toBe(false)
    const piece = pieces.nextWhenReady(id, owner)
    expect(await waits).toBe(true)
    list.add(texts(5, 3))
    expect(await piece).toEqual({ json: [`[${texts(4, 4).join(',')}]`], done: false })
    expect(await list.room()).toBe(true)
    list.add(texts(8, 4))
    expect(await settled(list.room())).toBe(false)
    // Another answer waits in its place (one kept): this one is dropped, and its read ends.
    const room = list.room()
    pieces.reply({ data: [1, 2, 3] }, owner)
    expect(await room).toBe(false)
    await expect(list.whole()).rejects.toMatchObject({ code: 'answer_gone' })
    // Asked for all of it (whole), a list is read to its end unpaced.
    const all = new ComingListText(20)
    all.pace(4)
    all.add(texts(0, 8))
    expect(await settled(all.room())).toBe(false)
    const whole = all.whole()
    expect(await all.room()).toBe(true)
    all.add(texts(8, 12))
    all.end()
    expect((await whole).values()).toHaveLength(20)
  })

  it('answers one not counted yet in pieces, with no count; its last piece carries how it was amended', async () => {
    const pieces = new AnswerPieces({ textPieceItems: 4 })
    const owner = {}
    const list = new ComingListText()
    list.add(texts(0, 5))
    const first = await pieces.answer({ data: list, source: 'network' }, owner)
    expect(first.more).toEqual({ id: expect.any(String) })
    const id = first.more?.id ?? ''
    const two = pieces.nextWhenReady(id, owner)
    list.add(texts(5, 2))
    // Ended amended: a2 gone, z0 first (masked as every text: the transform applies to it too).
    list.transform((t) => t.replace('"n":', '"k":'))
    list.amend([JSON.stringify({ id: 'z0', n: -1 })], ['a2'])
    list.end()
    const last = await two
    expect(last).toMatchObject({ done: true, gone: ['a2'], first: ['[{"id":"z0","k":-1}]'] })
    expect(itemsOfJson(first.json ?? [])).toEqual(JSON.parse(`[${texts(0, 4).join(',')}]`))
    expect('json' in last && itemsOfJson(last.json)).toEqual(
      JSON.parse(`[${texts(4, 3).join(',')}]`.replace(/"n":/g, '"k":'))
    )
    // Read inside main (an export: no piece let go of), such a list is as amended.
    const inMain = new ComingListText()
    inMain.add(texts(0, 7))
    inMain.amend([JSON.stringify({ id: 'z0', n: -1 })], ['a2'])
    inMain.end()
    const ids = (await listValues(inMain)).map((v) => (v as { id: string }).id)
    expect(ids).toEqual(['z0', 'a0', 'a1', 'a3', 'a4', 'a5', 'a6'])
  })

  it('answers a short one whole once it is read; a failed read fails the answer or the piece', async () => {
    const pieces = new AnswerPieces({ textPieceItems: 4 })
    const owner = {}
    const short = new ComingListText(3)
    const answered = pieces.answer({ data: short, source: 'cache' }, owner)
    expect(await settled(answered)).toBe(false)
    short.add(texts(0, 3))
    expect(await answered).toEqual({
      ok: true,
      value: { data: [], source: 'cache' },
      json: [`[${texts(0, 3).join(',')}]`]
    })
    const failing = new ComingListText(3)
    const failed = pieces.answer({ data: failing, source: 'cache' }, owner)
    failing.end(new Error('the disk went away'))
    await expect(failed).rejects.toThrow('the disk went away')
    const long = new ComingListText(9)
    long.add(texts(0, 1))
    const first = await pieces.answer({ data: long, source: 'cache' }, owner)
    const piece = pieces.nextWhenReady(first.more?.id ?? '', owner)
    long.add(texts(1, 1))
    long.end(new Error('cleared'))
    await expect(piece).rejects.toThrow('cleared')
  })
})
