/**
 * A list is read by joining each member to its item row through `item_seq` (db.ts). These tests
 * hold that link to what the member's id names, whatever the cache does, and check that a file
 * written before the link existed opens with its lists whole.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import Database from 'libsql'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { type TempStores, tempStores } from '../../../test/support/offlineStores'
import { cacheStatements } from './cacheStatements'
import { ANY_UNLINKED } from './db'

let t: TempStores
beforeEach(() => {
  t = tempStores()
})
afterEach(() => t.cleanup())

/**
 * What is wrong with the links: members linked to another row than the one their id names,
 * memberships that read otherwise through the links (the cache's list read) than by id, and with
 * `linkedAll`, members left unlinked although their item is cached.
 */
function brokenLinks(file: string, linkedAll = false): unknown[] {
  const db = new Database(file, { readonly: true })
  const listRows = cacheStatements(db).listRows
  try {
    const wrong = db
      .prepare(
        `SELECT l.resource, l.scope, l.id, l.item_seq FROM list_items l WHERE l.item_seq IS NOT NULL
         AND l.item_seq IS NOT (SELECT seq FROM items i WHERE i.resource = l.resource AND i.id = l.id)`
      )
      .all()
    // A member this version wrote is linked when its item is cached (no lookup by id on read).
    if (linkedAll) {
      const unlinked = db
        .prepare(
          `SELECT l.resource, l.scope, l.id FROM list_items l WHERE l.item_seq IS NULL
           AND EXISTS (SELECT 1 FROM items i WHERE i.resource = l.resource AND i.id = l.id)`
        )
        .all()
      wrong.push(...unlinked)
    }
    const byId = db.prepare(
      `SELECT i.json FROM list_items l JOIN items i ON i.resource = l.resource AND i.id = l.id
       WHERE l.resource = ? AND l.scope = ? ORDER BY l.position`
    )
    const lists = db
      .prepare('SELECT resource, scope, COALESCE(members, scope) FROM lists')
      .raw(true)
      .all() as string[][]
    for (const [resource, scope, key] of lists) {
      const read = listRows.all(resource, scope)
      const expected = byId.raw(true).all(resource, key)
      if (JSON.stringify(read) !== JSON.stringify(expected)) wrong.push({ resource, scope, read, expected })
    }
    return wrong
  } finally {
    db.close()
  }
}

const IDS = ['a', 'b', 'c', 'tmp-1', 'tmp-2'] as const
const SCOPES = ['', 'q'] as const
const id = fc.constantFrom(...IDS)
const scope = fc.constantFrom(...SCOPES)
const op = fc.oneof(
  fc.record({ kind: fc.constant('putList' as const), scope, ids: fc.uniqueArray(id, { maxLength: 5 }) }),
  fc.record({ kind: fc.constant('putItem' as const), id, name: fc.string({ maxLength: 3 }) }),
  fc.record({ kind: fc.constant('removeItem' as const), id }),
  fc.record({ kind: fc.constant('addToList' as const), scope, id, start: fc.boolean() }),
  fc.record({
    kind: fc.constant('remapId' as const),
    from: fc.constantFrom('tmp-1', 'tmp-2'),
    to: fc.constantFrom('a', 'b', 'c')
  }),
  fc.record({ kind: fc.constant('clear' as const) })
)

describe('list members keep the link to their item row', () => {
  it('after any sequence of puts, removals, additions, id remaps and clears', () => {
    let run = 0
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 12 }), (ops) => {
        const file = `${t.dir}/run-${run++}.sqlite`
        const store = t.open(file)
        const cache = store.cache
        try {
          for (const o of ops) {
            if (o.kind === 'putList')
              cache.putList(
                'agents',
                o.scope,
                o.ids.map((i) => ({ id: i, name: i })),
                null
              )
            else if (o.kind === 'putItem') cache.putItem('agents', { id: o.id, name: o.name }, null)
            else if (o.kind === 'removeItem') cache.removeItem('agents', o.id)
            else if (o.kind === 'addToList')
              cache.addToList('agents', o.scope, o.id, o.start ? 'start' : 'end')
            else if (o.kind === 'remapId') cache.remapId(o.from, o.to)
            else cache.clear()
            expect(brokenLinks(file, true)).toEqual([])
            // Each list reads as its members by id: those whose item is cached, in order.
            for (const s of SCOPES) {
              const list = cache.getList<{ id: string }>('agents', s)
              if (!list) continue
              const ids = list.value.map((x) => x.id)
              expect(new Set(ids).size).toBe(ids.length)
              for (const x of ids) expect(cache.getItem('agents', x)).not.toBeNull()
            }
          }
        } finally {
          store.close()
        }
      }),
      { numRuns: 150 }
    )
  })

  it('members written by statements that know no link (an older version of the app) read as by id', () => {
    const store = t.open()
    store.cache.putList('agents', '', [{ id: 'a' }, { id: 'b' }], null)
    store.close()
    const older = new Database(t.file)
    // As an older version writes: members without item_seq (one before its item row), a member
    // renamed, an item row deleted and added again, an item row's id changed (with one member
    // linked to it, as this version links, to see that change unlink it).
    older.exec(`
      INSERT INTO lists (resource, scope) VALUES ('agents', 'k');
      INSERT INTO list_items (resource, scope, position, id) VALUES
        ('agents', 'k', 0, 'b'), ('agents', 'k', 1, 'c'), ('agents', 'k', 2, 'a');
      INSERT INTO items (resource, id, json) VALUES ('agents', 'c', '{"id":"c"}');
      INSERT INTO list_items (resource, scope, position, id, item_seq)
        SELECT 'agents', 'k', 3, 'c', seq FROM items WHERE resource = 'agents' AND id = 'c';
      UPDATE list_items SET id = 'a' WHERE resource = 'agents' AND scope <> 'k' AND id = 'b';
      DELETE FROM items WHERE resource = 'agents' AND id = 'b';
      INSERT INTO items (resource, id, json) VALUES ('agents', 'b', '{"id":"b"}');
      UPDATE items SET id = 'd' WHERE resource = 'agents' AND id = 'c';
    `)
    const linked = (db: InstanceType<typeof Database>) =>
      db
        .prepare(
          `SELECT scope = 'k', position, id, item_seq IS NOT NULL FROM list_items ORDER BY scope = 'k', position`
        )
        .raw(true)
        .all()
    // The list's own membership (b renamed to a: relinked), then the older version's ('k').
    expect(linked(older)).toEqual([
      [0, 0, 'a', 1],
      [0, 1, 'a', 1],
      [1, 0, 'b', 0],
      [1, 1, 'c', 0],
      [1, 2, 'a', 0],
      [1, 3, 'c', 0]
    ])
    older.close()
    expect(brokenLinks(t.file)).toEqual([])
    expect(t.open().cache.getList('agents', 'k')?.value).toEqual([{ id: 'b' }, { id: 'a' }])
    // Opened again by this version: what can be linked is.
    const after = new Database(t.file, { readonly: true })
    expect(linked(after).slice(2)).toEqual([
      [1, 0, 'b', 1],
      [1, 1, 'c', 0],
      [1, 2, 'a', 1],
      [1, 3, 'c', 0]
    ])
    after.close()
    expect(brokenLinks(t.file)).toEqual([])
  })

  it('an open looks for unlinked members through their partial index, not through every member', () => {
    const store = t.open()
    store.cache.putList('agents', '', [{ id: 'a' }, { id: 'b' }], null)
    store.close()
    const db = new Database(t.file, { readonly: true })
    try {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${ANY_UNLINKED}`).all() as { detail: string }[]).map(
        (r) => r.detail
      )
      // Without the index named, SQLite plans `SCAN list_items`: ~20 ms at each open of 100,000.
      expect(plan).toEqual(['SCAN list_items USING INDEX list_items_unlinked'])
    } finally {
      db.close()
    }
  })

  it('a file written before the link existed opens with its lists whole', () => {
    // The tables as the app wrote them before `item_seq` (schema version 1 without it).
    mkdirSync(dirname(t.file), { recursive: true })
    const old = new Database(t.file)
    old.exec(`
      CREATE TABLE items (seq INTEGER PRIMARY KEY AUTOINCREMENT, resource TEXT NOT NULL, id TEXT NOT NULL,
        json TEXT NOT NULL, synced_at TEXT, UNIQUE (resource, id));
      CREATE TABLE lists (resource TEXT NOT NULL, scope TEXT NOT NULL, synced_at TEXT, members TEXT,
        PRIMARY KEY (resource, scope)) WITHOUT ROWID;
      CREATE TABLE list_items (resource TEXT NOT NULL, scope TEXT NOT NULL, position INTEGER NOT NULL,
        id TEXT NOT NULL, PRIMARY KEY (resource, scope, position)) WITHOUT ROWID;
      CREATE INDEX list_items_id ON list_items (resource, id);
      CREATE INDEX items_catalogue ON items (resource, seq);
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, channel TEXT NOT NULL,
        label TEXT NOT NULL, input TEXT, created_at TEXT NOT NULL, status TEXT NOT NULL, error TEXT,
        attempts INTEGER NOT NULL DEFAULT 0, temp_id TEXT, extra TEXT);
      INSERT INTO items (resource, id, json, synced_at) VALUES
        ('agents', 'b', '{"id":"b","name":"Bee"}', '2024-01-01'),
        ('agents', 'a', '{"id":"a","name":"Ay"}', '2024-01-01');
      INSERT INTO lists VALUES ('agents', '', '2024-01-02', NULL);
      INSERT INTO list_items VALUES ('agents', '', 0, 'a'), ('agents', '', 1, 'b'), ('agents', '', 2, 'gone');
      INSERT INTO outbox (id, channel, label, input, created_at, status) VALUES
        ('o1', 'agents.create', 'Create agent', '{}', '2024-01-01', 'pending');
      PRAGMA user_version = 1;
    `)
    old.close()
    const { cache, outbox, rebuilt } = t.open()
    expect(rebuilt).toBe(false)
    expect(cache.getList('agents', '')).toEqual({
      value: [
        { id: 'a', name: 'Ay' },
        { id: 'b', name: 'Bee' }
      ],
      syncedAt: '2024-01-02'
    })
    expect(outbox.list().map((e) => e.id)).toEqual(['o1'])
    expect(brokenLinks(t.file)).toEqual([])
  })
})
