/**
 * How a long list is written (listWrite.ts, memberships.ts): a step at a time, each step leaving
 * the cache whole; memberships by key, collected once no list points to them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import Database from 'libsql'
import { mkdirSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { type TempStores, tempStores } from '../../../test/support/offlineStores'
import { SCHEMA_VERSION } from './db'
import type { SqliteCacheStore } from './cache'
import { WAL_CAP_BYTES } from './checkpoints'
import { STORED_TEXTS } from './answers'

const T1 = '2024-01-01T00:00:00.000Z'
const T2 = '2024-01-02T00:00:00.000Z'
const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

let t: TempStores
let raw: Database.Database | null = null
beforeEach(() => {
  t = tempStores()
})
afterEach(() => {
  raw?.close()
  raw = null
  t.cleanup()
})

/** A second connection on the store's file: what is committed, as SQL sees it. */
function sql(query: string): number {
  raw ??= new Database(t.file)
  return Number((raw.prepare(query).raw(true).get() as unknown[])[0])
}
/** Another connection commits to the store's file (an item's row changed): data_version moves. */
function commitElsewhere(): void {
  sql('SELECT 1')
  raw?.exec(`UPDATE items SET json = '{"id":"a1","name":"edited"}' WHERE id = 'a1'`)
}
/** Members stored under a key no list points to (being written, or left to collect). */
const unlisted = () =>
  sql(`SELECT COUNT(*) FROM list_items WHERE scope NOT IN (SELECT COALESCE(members, scope) FROM lists)`)

describe('a long list is written a step at a time', () => {
  it('new rows and the new membership land over many turns; every read meanwhile sees the old list or the new one', async () => {
    const { cache } = t.open()
    const old = [
      { id: 'a0', name: 'old 0' },
      { id: 'a1', name: 'old 1' }
    ]
    cache.putList('agents', 'all', old, T1)
    const items = Array.from({ length: 5_000 }, (_, i) => ({ id: `a${i}`, name: `new ${i}` }))
    const oldList = JSON.stringify({ value: old, syncedAt: T1 })
    const newList = JSON.stringify({ value: items, syncedAt: T2 })
    const seen: { list: string; rows: number; staged: number }[] = []
    let done = false
    const look = (last = false) => {
      if (done && !last) return
      seen.push({
        list: JSON.stringify(cache.getList('agents', 'all')),
        rows: cache.itemCount(),
        staged: unlisted()
      })
      if (!done) setImmediate(look)
    }
    setImmediate(look)
    await cache.putListInSteps('agents', 'all', items, T2)
    done = true
    look(true)

    expect(seen.filter((s) => s.list !== oldList && s.list !== newList)).toEqual([])
    // While the old list still showed, the 4,998 new rows arrived in several steps, then the
    // membership did: each was committed step by step, not in one long transaction.
    const before = seen.filter((s) => s.list === oldList)
    expect(new Set(before.map((s) => s.rows).filter((n) => n > 2 && n < 5_000)).size).toBeGreaterThan(2)
    expect(new Set(before.map((s) => s.staged).filter((n) => n > 0 && n < 5_000)).size).toBeGreaterThan(2)
    // At the end one membership is left: the old one was collected.
    expect(seen.at(-1)).toEqual({ list: newList, rows: 5_000, staged: 0 })
    expect(sql('SELECT COUNT(*) FROM list_items')).toBe(5_000)
  })

  it('keeps the write-ahead log short, and no step pays for copying it back', async () => {
    const { cache } = t.open()
    // ~10 MB of agent-sized rows, as the first list of 10,000 agents writes.
    const items = Array.from({ length: 10_000 }, (_, i) => ({
      id: `agent-${i}`,
      name: `agent ${i}`,
      notes: `${i} `.repeat(200)
    }))
    await cache.putListInSteps('agents', 'all', items, T2)
    expect(cache.itemCount()).toBe(10_000)
    // Main's commits only appended to the log: a thread copied it back (checkpoints.ts), and the
    // write waited for it to catch up whenever the log passed WAL_CAP_BYTES, which it is cut back to.
    expect((cache as SqliteCacheStore).threadWork.checkpoints).toBeGreaterThan(0)
    expect(statSync(`${t.file}-wal`).size).toBeLessThanOrEqual(WAL_CAP_BYTES + 1024 * 1024)
  })

  it('an item new to the cache that is written meanwhile is merged under the server item, not overwritten', async () => {
    const { cache } = t.open()
    const items = Array.from({ length: 3_000 }, (_, i) => ({ id: `a${i}`, name: `new ${i}` }))
    const writing = cache.putListInSteps('agents', 'all', items, T2)
    // The new rows go in bottom-up: once some are stored, a10's is not yet.
    while (cache.itemCount() === 0) await turn()
    expect(cache.getItem('agents', 'a10')).toBeNull()
    cache.putItem('agents', { id: 'a10', name: 'mine', metadata: { mine: true } }, null)
    const stored = await writing
    expect(stored[10]).toEqual({ id: 'a10', name: 'new 10', metadata: { mine: true } })
    expect(cache.getItem('agents', 'a10')?.value).toEqual({
      id: 'a10',
      name: 'new 10',
      metadata: { mine: true }
    })
    expect(cache.getList('agents', 'all')?.value).toHaveLength(3_000)
  })

  it('rows it wrote that go meanwhile (the cache cleared) are written again: the list is whole', async () => {
    const { cache } = t.open()
    const items = Array.from({ length: 3_000 }, (_, i) => ({ id: `a${i}`, name: `new ${i}` }))
    const writing = cache.putListInSteps('agents', 'all', items, T2)
    while (cache.itemCount() === 0) await turn()
    cache.clear()
    await writing
    expect(cache.getList('agents', 'all')).toEqual({ value: items, syncedAt: T2 })
  })

  it('members it staged that go meanwhile (the cache cleared) are staged again: the list is whole', async () => {
    const { cache } = t.open()
    const items = Array.from({ length: 3_000 }, (_, i) => ({ id: `a${i}`, name: `new ${i}` }))
    const writing = cache.putListInSteps('agents', 'all', items, T2)
    while (unlisted() === 0) await turn()
    cache.clear()
    await writing
    expect(cache.getList('agents', 'all')).toEqual({ value: items, syncedAt: T2 })
    expect(sql('SELECT COUNT(*) FROM list_items')).toBe(3_000)
  })

  it('a membership another store on the file is writing is not collected', async () => {
    const a = t.open().cache
    const b = t.open().cache
    const items = Array.from({ length: 3_000 }, (_, i) => ({ id: `b${i}`, name: `B ${i}` }))
    const writing = b.putListInSteps('agents', 'all', items, T1)
    while (unlisted() === 0) await turn()
    // Another list of the resource changes: its old membership is collected, b's is being written.
    a.putList('agents', 'other', [{ id: 'z', name: 'Z' }], T1)
    a.putList('agents', 'other', [{ id: 'y', name: 'Y' }], T2)
    await writing
    expect(b.getList('agents', 'all')?.value).toEqual(items)
    expect(a.getList('agents', 'other')?.value).toEqual([{ id: 'y', name: 'Y' }])
    expect(sql('SELECT COUNT(*) FROM list_items')).toBe(3_001)
  })
})

describe('a file written before membership keys', () => {
  function oldFile(): void {
    mkdirSync(dirname(t.file), { recursive: true })
    const db = new Database(t.file)
    db.exec(`CREATE TABLE items (seq INTEGER PRIMARY KEY AUTOINCREMENT, resource TEXT NOT NULL, id TEXT NOT NULL, json TEXT NOT NULL, synced_at TEXT, UNIQUE (resource, id));
      CREATE TABLE lists (resource TEXT NOT NULL, scope TEXT NOT NULL, synced_at TEXT, PRIMARY KEY (resource, scope)) WITHOUT ROWID;
      CREATE TABLE list_items (resource TEXT NOT NULL, scope TEXT NOT NULL, position INTEGER NOT NULL, id TEXT NOT NULL, PRIMARY KEY (resource, scope, position)) WITHOUT ROWID;
      CREATE INDEX list_items_id ON list_items (resource, id);
      CREATE INDEX items_catalogue ON items (resource, seq);
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, channel TEXT NOT NULL, label TEXT NOT NULL, input TEXT, created_at TEXT NOT NULL, status TEXT NOT NULL, error TEXT, attempts INTEGER NOT NULL DEFAULT 0, temp_id TEXT, extra TEXT);
      INSERT INTO items (resource, id, json, synced_at) VALUES
        ('agents', 'a1', '{"id":"a1","name":"One"}', '${T1}'),
        ('agents', 'a2', '{"id":"a2","name":"Two"}', '${T1}'),
        ('agentDocuments', 'l1', '{"id":"l1","agentId":"tmp-1"}', '${T1}');
      INSERT INTO lists (resource, scope, synced_at) VALUES ('agents', 'all', '${T1}'), ('agentDocuments', 'agent:tmp-1', '${T1}');
      INSERT INTO list_items (resource, scope, position, id) VALUES
        ('agents', 'all', 0, 'a1'), ('agents', 'all', 1, 'a2'), ('agentDocuments', 'agent:tmp-1', 0, 'l1');
      PRAGMA user_version = ${SCHEMA_VERSION};`)
    db.close()
  }

  it('keeps its lists: they read, take an added item and a remapped id, and move to a key when rewritten', async () => {
    oldFile()
    const s = t.open()
    expect(s.rebuilt).toBe(false)
    const { cache } = s
    expect(cache.getList('agents', 'all')).toEqual({
      value: [
        { id: 'a1', name: 'One' },
        { id: 'a2', name: 'Two' }
      ],
      syncedAt: T1
    })
    expect(cache.getItem('agents', 'a2')?.syncedAt).toBe(T1)
    cache.putItem('agents', { id: 'x', name: 'X' }, T1)
    expect(cache.addToList('agents', 'all', 'x', 'start')).toBe(true)
    expect(cache.getList<{ id: string }>('agents', 'all')?.value.map((a) => a.id)).toEqual(['x', 'a1', 'a2'])

    cache.remapId('tmp-1', 'real-1')
    expect(cache.getList('agentDocuments', 'agent:real-1')?.value).toEqual([{ id: 'l1', agentId: 'real-1' }])
    expect(cache.getList('agentDocuments', 'agent:tmp-1')).toBeNull()

    await cache.putListInSteps('agents', 'all', [{ id: 'a2', name: 'Two' }], T2)
    expect(cache.getList('agents', 'all')).toEqual({ value: [{ id: 'a2', name: 'Two' }], syncedAt: T2 })
    expect(sql("SELECT COUNT(*) FROM list_items WHERE resource = 'agents'")).toBe(1)
    expect(sql("SELECT COUNT(*) FROM lists WHERE members IS NULL AND resource = 'agents'")).toBe(0)
  })
})

describe('a list written as its pages come (listWriter)', () => {
  const page = (from: number, n: number, name = 'item') =>
    Array.from({ length: n }, (_, i) => ({ id: `a${from + i}`, name: `${name} ${from + i}` }))
  /** Reads of the list from pages with these digests (items as parsed from JSON: their texts hold all of them). */
  const readPages =
    (cache: ReturnType<TempStores['open']>['cache']) =>
    async (digests: string[], pages: ReturnType<typeof page>[]) => {
      const writer = cache.listWriter('agents', 'all', T2)
      for (let i = 0; i < pages.length; i++)
        await writer.add(pages[i] as unknown[], { digest: digests[i], exact: () => true })
      return writer.finish()
    }

  it('plans each page as it comes and writes nothing until the list is whole; a bad item on a later page leaves the old list', async () => {
    const { cache } = t.open()
    cache.putList('agents', 'all', page(0, 2, 'old'), T1)
    const writer = cache.listWriter('agents', 'all', T2)
    await writer.add(page(0, 600))
    // Planned, not written: a reader sees the old list, and no row of the page is stored.
    expect(cache.getList('agents', 'all')?.value).toEqual(page(0, 2, 'old'))
    expect(cache.getItem('agents', 'a5')).toBeNull()
    await expect(writer.add([...page(600, 10), { name: 'no id' }])).rejects.toThrow(/id/)
    expect(cache.getList('agents', 'all')).toEqual({ value: page(0, 2, 'old'), syncedAt: T1 })
    expect(cache.getItem('agents', 'a5')).toBeNull()

    const next = cache.listWriter('agents', 'all', T2)
    await next.add(page(0, 600))
    await next.add(page(600, 400))
    const list = await next.finish()
    expect(cache.getList('agents', 'all')).toEqual({ value: page(0, 1000), syncedAt: T2 })
    // What it ends with is each item's row, as text.
    expect(list.length).toBe(1000)
    expect(list.texts.every((x) => typeof x === 'string')).toBe(true)
    expect(list.values()).toEqual(page(0, 1000))
    expect(JSON.parse(list.texts[3] as string)).toEqual(cache.getItem('agents', 'a3')?.value)
  })

  it('merges an item a tolerant schema read (its undefined fields keep what is known) as the item, not as its text, onto a row changed meanwhile', async () => {
    const { cache } = t.open()
    cache.putList('agents', 'all', [{ id: 'a1', name: 'one', llm: { model: 'm', provider: 'p' } }], T1)
    const read = { id: 'a1', name: 'one (server)', llm: { model: 'm2', provider: undefined } }
    const asText = { id: 'a2', name: 'two (server)', llm: { model: 'm2', provider: undefined } }
    cache.putList('agents', 'other', [{ id: 'a2', name: 'two', llm: { model: 'm', provider: 'p' } }], T1)
    const writer = cache.listWriter('agents', 'all', T2)
    // a1 is known to be read by zod; a2 (wrongly) claimed exact: only its text is kept.
    await writer.add([read, asText], { exact: (item) => item !== read })
    // Both rows change while the list is on its way (an edit, another read).
    cache.putItem('agents', { id: 'a1', name: 'one', llm: { model: 'm', provider: 'mine' } }, null)
    cache.putItem('agents', { id: 'a2', name: 'two', llm: { model: 'm', provider: 'mine' } }, null)
    const list = await writer.finish()
    // Merged again as the item: the provider it did not know is kept.
    expect(cache.getItem('agents', 'a1')?.value).toEqual({
      id: 'a1',
      name: 'one (server)',
      llm: { model: 'm2', provider: 'mine' }
    })
    // Merged again as its text, which has no `provider` to keep: the nested record is the server's.
    expect(cache.getItem('agents', 'a2')?.value).toEqual({
      id: 'a2',
      name: 'two (server)',
      llm: { model: 'm2' }
    })
    expect(list.values().map((a) => (a as { llm: unknown }).llm)).toEqual([
      { model: 'm2', provider: 'mine' },
      { model: 'm2' }
    ])
  })

  it('takes a page whose bytes are those of the same page of the answer stored last as stored, and compares the others', async () => {
    const { cache } = t.open()
    const read = readPages(cache)
    const pages = [page(0, 300), page(300, 300)]
    await read(['d1', 'd2'], pages) // new rows
    await read(['d1', 'd2'], pages) // compared, found stored: remembered
    // A row changed behind the store's back (another program): a page taken as stored is not
    // compared with its rows (it answers them as stored), a page compared is.
    raw ??= new Database(t.file)
    raw.exec(`UPDATE items SET json = '{"id":"a1","name":"edited"}' WHERE id = 'a1'`)
    raw.exec(`UPDATE items SET json = '{"id":"a301","name":"edited"}' WHERE id = 'a301'`)
    const list = await read(['d1', 'd2-changed'], pages)
    expect(cache.getItem('agents', 'a1')?.value).toEqual({ id: 'a1', name: 'edited' })
    expect(cache.getItem('agents', 'a301')?.value).toEqual({ id: 'a301', name: 'item 301' })
    const edited = page(0, 300).map((a) => (a.id === 'a1' ? { ...a, name: 'edited' } : a))
    expect(list.values()).toEqual([...edited, ...page(300, 300)])
    expect(cache.getList('agents', 'all')?.value).toEqual(list.values())
  })

  it('answers the same answer again as it answered it last, no row read, until another connection commits to the file', async () => {
    const { cache } = t.open()
    const store = cache as SqliteCacheStore
    const read = readPages(cache)
    const pages = [page(0, 300), page(300, 300)]
    const key = () =>
      (raw ??= new Database(t.file)).prepare(`SELECT members FROM lists WHERE scope = 'all'`).raw(true).get()
    const first = await read(['d1', 'd2'], pages) // new rows, written as given: remembered
    expect(store.pagesRemembered).toBe(0)
    const staged = key()
    const again = await read(['d1', 'd2'], pages)
    expect(store.pagesRemembered).toBe(2)
    expect(again.texts).toEqual(first.texts)
    expect(key()).toEqual(staged) // its members where that list staged them: not staged again
    expect(cache.getList('agents', 'all')?.value).toEqual([...pages[0]!, ...pages[1]!])
    // Still remembered: the membership was neither staged again nor left to collect.
    expect(unlisted()).toBe(0)
    await read(['d1', 'd2'], pages)
    expect(store.pagesRemembered).toBe(4)

    // Another connection commits (a row edited behind the store's back): the rows are read again.
    commitElsewhere()
    const edited = await read(['d1', 'd2'], pages)
    expect(store.pagesRemembered).toBe(4)
    expect(edited.values()[1]).toEqual({ id: 'a1', name: 'edited' })

    // (Answered with the rows as stored, that answer is remembered again.) The first page as
    // remembered, the second changed (an item renamed): the list is whole, and its membership is
    // compared from where the remembered page ends.
    const renamed = page(300, 300).map((a) => (a.id === 'a400' ? { ...a, name: 'renamed' } : a))
    const before = key()
    const mixed = await read(['d1', 'd2-renamed'], [page(0, 300), renamed])
    expect(store.pagesRemembered).toBe(5)
    const whole = [...page(0, 300).map((a) => (a.id === 'a1' ? { ...a, name: 'edited' } : a)), ...renamed]
    expect(mixed.values()).toEqual(whole)
    expect(cache.getList('agents', 'all')?.value).toEqual(whole)
    expect(sql(`SELECT COUNT(*) FROM list_items`)).toBe(600)
    expect(key()).toEqual(before) // the same members: not staged again
  })

  it('remembers a list that wrote only its items as given; not one that merged an item onto more, nor one written meanwhile', async () => {
    const { cache } = t.open()
    const store = cache as SqliteCacheStore
    const read = readPages(cache)
    const pages = [page(0, 300), page(300, 300)]
    // New rows, then one renamed on the server: each list writes, each time the items as given.
    await read(['d1', 'd2'], pages)
    const renamed = page(300, 300).map((a) => (a.id === 'a301' ? { ...a, name: 'renamed' } : a))
    await read(['d1', 'd2-renamed'], [page(0, 300), renamed])
    expect(store.pagesRemembered).toBe(1) // its first page, as the list before answered it
    await read(['d1', 'd2-renamed'], [page(0, 300), renamed])
    expect(store.pagesRemembered).toBe(3)

    // Another write while the list is on its way (a row edited, then written back as the item by
    // the list): not remembered, compared again next time.
    const third = [page(0, 300, 'third'), page(300, 300, 'third')]
    const writer = cache.listWriter('agents', 'all', T2)
    await writer.add(third[0] as unknown[], { digest: 'f1', exact: () => true })
    cache.putItem('agents', { id: 'a400', name: 'edited' }, T1)
    await writer.add(third[1] as unknown[], { digest: 'f2', exact: () => true })
    await writer.finish()
    expect(cache.getItem('agents', 'a400')?.value).toEqual({ id: 'a400', name: 'third 400' })
    await read(['f1', 'f2'], third)
    expect(store.pagesRemembered).toBe(3)
    await read(['f1', 'f2'], third) // the list before found every item stored as given
    expect(store.pagesRemembered).toBe(5)

    // A row that knows more than the list (a detail read): merged, the row is not the item as
    // given, so the same answer again is compared (and keeps what the row knows).
    cache.putItem('agents', { id: 'a5', name: 'item 5', metadata: { more: true } }, T1)
    await read(['e1', 'e2'], pages)
    await read(['e1', 'e2'], pages)
    expect(store.pagesRemembered).toBe(5)
    expect(cache.getItem('agents', 'a5')?.value).toEqual({
      id: 'a5',
      name: 'item 5',
      metadata: { more: true }
    })
  })

  it('takes a page of the answer stored last by its digest alone (no item), only while nothing was written since', async () => {
    const { cache } = t.open()
    const store = cache as SqliteCacheStore
    const read = readPages(cache)
    const pages = [page(0, 300), page(300, 300)]
    const first = await read(['d1', 'd2'], pages) // new rows, written as given: remembered
    // The first page by its digest, the second as items: the list as before, no row read again.
    const writer = cache.listWriter('agents', 'all', T2)
    expect(writer.expects()).toBe(true)
    expect(await writer.takeKnown('d1', 299)).toBe(false) // not its length
    expect(await writer.takeKnown('d2', 300)).toBe(false) // not its place
    expect(await writer.takeKnown('d1', 300)).toBe(true)
    expect(writer.expects()).toBe(true)
    await writer.add(pages[1] as unknown[], { digest: 'd2', exact: () => true })
    expect(writer.expects()).toBe(false) // no third page was answered
    const again = await writer.finish()
    expect(store.pagesRemembered).toBe(2)
    expect(again.texts).toEqual(first.texts)
    expect(cache.getList('agents', 'all')?.value).toEqual([...pages[0]!, ...pages[1]!])
    // Remembered again: both pages by their digests.
    const both = cache.listWriter('agents', 'all', T2)
    expect([await both.takeKnown('d1', 300), await both.takeKnown('d2', 300)]).toEqual([true, true])
    expect((await both.finish()).texts).toEqual(first.texts)
    expect(unlisted()).toBe(0)

    // A write to the resource since the list began: no page is taken unread.
    const written = cache.listWriter('agents', 'all', T2)
    cache.putItem('agents', { id: 'a5', name: 'edited' }, T1)
    expect(written.expects()).toBe(false)
    expect(await written.takeKnown('d1', 300)).toBe(false)
    await written.add(pages[0] as unknown[], { digest: 'd1', exact: () => true })
    await written.add(pages[1] as unknown[], { digest: 'd2', exact: () => true })
    expect((await written.finish()).values()).toEqual([...pages[0]!, ...pages[1]!])
    expect(cache.getItem('agents', 'a5')?.value).toEqual(page(5, 1)[0])
    await read(['d1', 'd2'], pages) // remembered again

    // Another connection committed to the file: its rows are read again, not taken unread.
    commitElsewhere()
    const behind = cache.listWriter('agents', 'all', T2)
    expect(await behind.takeKnown('d1', 300)).toBe(false)
  })

  it('takes a page of a list too long for its texts to be kept by its digest alone, its rows read from the file in steps', async () => {
    const { cache } = t.open()
    const store = cache as SqliteCacheStore
    const read = readPages(cache)
    // 2,400 items of ~7,000 characters: past STORED_TEXTS, so only its digests and pages are kept.
    // A page's 1,200 rows are read in two steps.
    const long = 'x'.repeat(7_000)
    const pages = [page(0, 1_200, long), page(1_200, 1_200, long)]
    expect(JSON.stringify(pages).length).toBeGreaterThan(STORED_TEXTS)
    const first = await read(['d1', 'd2'], pages)
    const writer = cache.listWriter('agents', 'all', T2)
    expect(writer.expects()).toBe(true)
    expect(await writer.takeKnown('d1', 1_199)).toBe(false) // not its length
    expect(await writer.takeKnown('d2', 1_200)).toBe(false) // not its place
    expect([await writer.takeKnown('d1', 1_200), await writer.takeKnown('d2', 1_200)]).toEqual([true, true])
    expect(writer.expects()).toBe(false) // no third page was answered
    const again = await writer.finish()
    expect(store.pagesRemembered).toBe(2)
    expect(again.texts).toEqual(first.texts)
    expect(cache.getList('agents', 'all')?.value).toEqual([...pages[0]!, ...pages[1]!])
    expect(unlisted()).toBe(0)

    // A write while its rows are read: not taken (its items are then parsed).
    const meanwhile = cache.listWriter('agents', 'all', T2)
    const taking = meanwhile.takeKnown('d1', 1_200)
    cache.putItem('agents', { id: 'a5', name: 'edited' }, T1)
    expect(await taking).toBe(false)
    await read(['d1', 'd2'], pages) // remembered again

    // Read ahead of its bytes (`expects`), then another connection committed to the file: its
    // items are parsed, not taken from the rows read.
    const behind = cache.listWriter('agents', 'all', T2)
    expect(behind.expects()).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 100))
    commitElsewhere()
    expect(await behind.takeKnown('d1', 1_200)).toBe(false)
  })

  it('answers a page taken as stored with its rows as stored, read with its members (no item written out again)', async () => {
    const { cache } = t.open()
    const read = async (digest: string, items: unknown[]) => {
      const writer = cache.listWriter('agents', 'all', T2)
      await writer.add(items, { digest, exact: () => true })
      return writer.finish()
    }
    // Stored with its fields as id, name; then the server sends them as name, id: compared, the
    // same fields (nothing written), and that answer remembered; then the same answer again.
    await read('first', page(0, 600))
    const turned = page(0, 600).map(({ id, name }) => ({ name, id }))
    const compared = await read('turned', turned)
    const stored = await read('turned', turned)
    raw ??= new Database(t.file)
    const rows = (
      raw
        .prepare("SELECT json FROM items WHERE resource = 'agents' ORDER BY id")
        .raw(true)
        .all() as string[][]
    ).map((r) => r[0])
    const sorted = (texts: readonly string[]) =>
      [...texts].sort((a, b) => (JSON.parse(a).id < JSON.parse(b).id ? -1 : 1))
    expect(sorted(compared.texts)).toEqual(rows)
    expect(sorted(stored.texts)).toEqual(rows)
    expect(stored.texts[0]).toBe('{"id":"a0","name":"item 0"}')
    expect(stored.values()).toEqual(page(0, 600))
  })

  it('lets a page’s items go a step at a time when the page is its to change (release), the list the same', async () => {
    const { cache } = t.open()
    const items: unknown[] = page(0, 600)
    const writer = cache.listWriter('agents', 'all', T2)
    // Per turn of the loop while the page is planned: how many of its entries were let go.
    const gone: number[] = []
    let planning = true
    const look = () => {
      gone.push(items.filter((x) => x === undefined).length)
      if (planning) setImmediate(look)
    }
    setImmediate(look)
    await writer.add(items, { digest: 'p1', exact: () => true, release: true })
    planning = false
    expect(items.every((x) => x === undefined)).toBe(true)
    // Let go as its steps (of LIST_STEP) ended, not all at the page's end.
    expect(gone.some((n) => n > 0 && n < 600)).toBe(true)
    expect((await writer.finish()).values()).toEqual(page(0, 600))
    expect(cache.getList('agents', 'all')?.value).toEqual(page(0, 600))
  })

  it('keeps an item that came on two pages (it moved across their boundary) once, where it came first', async () => {
    const { cache } = t.open()
    const writer = cache.listWriter('agents', 'all', T2)
    await writer.add(page(0, 3), { digest: 'p1', exact: () => true })
    await writer.add(page(2, 3), { digest: 'p2', exact: () => true })
    const ids = ['a0', 'a1', 'a2', 'a3', 'a4']
    expect((await writer.finish()).values().map((a) => (a as { id: string }).id)).toEqual(ids)
    expect(cache.getList<{ id: string }>('agents', 'all')?.value.map((a) => a.id)).toEqual(ids)
  })

  it('lists items first and leaves others out when told at the end (waiting creates, deletions meanwhile)', async () => {
    const { cache } = t.open()
    const writer = cache.listWriter('agents', 'all', T2)
    await writer.add(page(0, 5))
    const list = await writer.finish({
      first: [{ id: 'local-1', name: 'waiting' }],
      leaveOut: (id) => id === 'a2'
    })
    const ids = ['local-1', 'a0', 'a1', 'a3', 'a4']
    expect(list.values().map((a) => (a as { id: string }).id)).toEqual(ids)
    expect(cache.getList<{ id: string }>('agents', 'all')?.value.map((a) => a.id)).toEqual(ids)
  })
})
