import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
  writeSync
} from 'node:fs'
import { dirname, join } from 'node:path'
import Database from 'libsql'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { maskToken } from '../../shared/apiToken'
import { cacheStatements } from './cacheStatements'
import { openChecked } from './db'
import { openOrRebuild } from './rebuild'
import { SCHEMA_VERSION, offlineStorePath, openOfflineStoreLettingGo, safeSegment } from './index'
import { heldPaths } from '../../../test/support/heldFiles'
import { type TempStores, tempStores } from '../../../test/support/offlineStores'

let t: TempStores
beforeEach(() => {
  t = tempStores()
})
afterEach(() => t.cleanup())

const asideFiles = (file: string) => readdirSync(dirname(file)).filter((f) => f.includes('.corrupt-'))

/** A cache file of a newer schema version holding one queued edit (ob-1). */
function newerVersionFile(file: string): void {
  mkdirSync(dirname(file), { recursive: true })
  const old = new Database(file)
  old.exec(`CREATE TABLE outbox (seq INTEGER PRIMARY KEY, id TEXT, channel TEXT, label TEXT, input TEXT, created_at TEXT);
    INSERT INTO outbox (id, channel, label, input, created_at)
      VALUES ('ob-1', 'documents.rename', 'Rename', '{"id":"d1"}', '2024-01-01T00:00:00.000Z');
    PRAGMA user_version = ${SCHEMA_VERSION + 1};`)
  old.close()
}

describe('openOfflineStore', () => {
  it('creates folders and a fresh file', () => {
    const s = t.open()
    expect(s.rebuilt).toBe(false)
    expect(s.memory).toBe(false)
    expect(existsSync(t.file)).toBe(true)
  })

  it('moves a garbage file aside and rebuilds it', () => {
    const s1 = t.open()
    s1.close()
    writeFileSync(t.file, Buffer.from('this is not a database at all '.repeat(300)))
    writeFileSync(`${t.file}-wal`, Buffer.from('garbage wal'))
    const s = t.open()
    expect(s.rebuilt).toBe(true)
    s.cache.putItem('agents', { id: 'a', name: 'works' }, null)
    expect(s.cache.getItem('agents', 'a')?.value).toEqual({ id: 'a', name: 'works' })
    const aside = asideFiles(t.file)
    expect(aside.some((f) => !f.endsWith('-wal'))).toBe(true)
    expect(aside.some((f) => f.endsWith('-wal'))).toBe(true)
    s.close()
    expect(t.open().rebuilt).toBe(false)
  })

  it('rebuilds a file of another schema version, salvaging its queued edits', () => {
    for (const version of [SCHEMA_VERSION + 1, 0]) {
      const file = join(t.dir, `v${version}.sqlite`)
      const old = new Database(file)
      old.exec(`CREATE TABLE outbox (seq INTEGER PRIMARY KEY, id TEXT, channel TEXT, label TEXT, input TEXT, created_at TEXT);
        CREATE TABLE items (x TEXT);
        INSERT INTO outbox (id, channel, label, input, created_at)
          VALUES ('ob-1', 'documents.rename', 'Rename', '{"id":"d1"}', '2024-01-01T00:00:00.000Z');
        PRAGMA user_version = ${version};`)
      old.close()
      const s = t.open(file)
      expect(s.rebuilt).toBe(true)
      expect(s.outbox.list()).toMatchObject([
        { id: 'ob-1', channel: 'documents.rename', input: { id: 'd1' }, status: 'pending' }
      ])
      s.cache.putList('agents', '', [{ id: 'a' }], null)
      expect(s.cache.getList('agents', '')?.value).toEqual([{ id: 'a' }])
      expect(asideFiles(file).length).toBeGreaterThan(0)
    }
  })

  it('a damaged file that cannot be moved aside is kept, queued edits and all, for the next open; this run works in memory', () => {
    newerVersionFile(t.file)
    // As Windows answers for a file a connection still holds (SQLite shares none for deletion).
    const busy = () => {
      throw Object.assign(new Error('EBUSY: resource busy or locked'), { code: 'EBUSY' })
    }
    const held = openOrRebuild(t.file, { rename: busy, remove: busy })
    expect(held.memory).toBe(true)
    // Not copied here: sent now, they would be sent again from the file after its rebuild.
    expect(held.db.prepare('SELECT count(*) FROM outbox').raw(true).get()).toEqual([0])
    held.db.close()
    expect(asideFiles(t.file)).toEqual([])
    const s = t.open()
    expect(s.rebuilt).toBe(true)
    expect(s.memory).toBe(false)
    expect(s.outbox.list()).toMatchObject([{ id: 'ob-1', status: 'pending' }])
    expect(asideFiles(t.file).length).toBeGreaterThan(0)
  })

  it.runIf(process.platform === 'linux')(
    "Windows's way: a damaged file is moved aside once the driver has let go of it",
    async () => {
      newerVersionFile(t.file)
      const s = await openOfflineStoreLettingGo(t.file, 'win32')
      expect(s.rebuilt).toBe(true)
      expect(s.memory).toBe(false)
      expect(s.outbox.list()).toMatchObject([{ id: 'ob-1', status: 'pending' }])
      // What read the damaged file held it, and a file moved aside while open is still held under its new name.
      expect(heldPaths().filter((p) => p.includes('.corrupt-'))).toEqual([])
      s.close()
    }
  )

  it('corruption found after open is a cache miss, never a crash, and the next open rebuilds', async () => {
    const a = t.open()
    const big = 'x'.repeat(2000)
    a.cache.putList(
      'documents',
      '',
      Array.from({ length: 200 }, (_, i) => ({ id: `d${i}`, big })),
      null
    )
    a.close()
    const size = statSync(t.file).size
    const fd = openSync(t.file, 'r+')
    writeSync(fd, Buffer.alloc(size - 8192, 0xa5), 0, size - 8192, 8192) // pages 3.. are garbage
    closeSync(fd)
    const b = t.open()
    expect(b.rebuilt).toBe(false) // page 1 (schema) still reads fine
    expect(b.cache.getList('documents', '')).toBeNull()
    expect(b.cache.catalogue('documents')).toEqual([])
    expect(() => b.cache.putList('documents', '', [{ id: 'n' }], null)).not.toThrow()
    // A list written as its pages come reads as its items, with nothing stored.
    const writer = b.cache.listWriter('documents', '', null)
    await writer.add([{ id: 'p1', name: 'one' }])
    await writer.add([{ id: 'p2', name: 'two' }], { release: true }) // its array the writer's to change
    expect((await writer.finish()).values()).toEqual([
      { id: 'p1', name: 'one' },
      { id: 'p2', name: 'two' }
    ])
    expect(b.cache.putItem('documents', { id: 'n', name: 'kept' }, null)).toMatchObject({
      id: 'n',
      name: 'kept'
    })
    b.close()
    const c = t.open()
    expect(c.rebuilt).toBe(true)
    c.cache.putItem('documents', { id: 'd' }, null)
    expect(c.cache.getItem('documents', 'd')).not.toBeNull()
  })
})

describe('an open of a file made by an older version', () => {
  /** The file's columns of `table`, and the names of its indexes and triggers. */
  const schemaOf = (file: string) => {
    const db = new Database(file, { readonly: true })
    try {
      const columns = (table: string) =>
        (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).raw(true).all() as string[][]).map(
          (r) => r[0]
        )
      const others = (
        db.prepare("SELECT name FROM sqlite_master WHERE type <> 'table'").raw(true).all() as string[][]
      )
        .map((r) => r[0])
        .sort()
      return { outbox: columns('outbox'), lists: columns('lists'), listItems: columns('list_items'), others }
    } finally {
      db.close()
    }
  }

  it.each([
    ['the replay state of queued edits', 'ALTER TABLE outbox DROP COLUMN extra'],
    ['the key of a list’s membership', 'ALTER TABLE lists DROP COLUMN members'],
    ['a trigger that relinks members', 'DROP TRIGGER items_relink'],
    ['the index of unlinked members', 'DROP INDEX list_items_unlinked']
  ])('lacking only %s gets it back, its cache kept', (_, change) => {
    const a = t.open()
    a.cache.putItem('tools', { id: 't1', name: 'Cached' }, null)
    a.close()
    const whole = schemaOf(t.file)
    const raw = new Database(t.file)
    raw.exec(change)
    raw.close()
    expect(schemaOf(t.file)).not.toEqual(whole)

    const b = t.open()
    expect(b.rebuilt).toBe(false)
    expect(b.cache.getItem('tools', 't1')?.value).toEqual({ id: 't1', name: 'Cached' })
    b.close()
    expect(schemaOf(t.file)).toEqual(whole)
  })
})

describe('the cache statements', () => {
  it('are prepared each when first used, once (SQLite lists those a connection holds)', () => {
    const db = openChecked(join(t.dir, 'statements.sqlite'))
    try {
      const count = db.prepare('SELECT count(*) FROM sqlite_stmt').raw(true)
      const held = () => (count.get() as number[])[0] as number
      const before = held()
      const s = cacheStatements(db)
      expect(held()).toBe(before)
      expect(s.listHead.all('agents', '')).toEqual([])
      expect(s.listHead).toBe(s.listHead)
      expect(held()).toBe(before + 1)
    } finally {
      db.close()
    }
  })
})

describe('secrets', () => {
  it('never writes an API-token value to disk, keeping a masked preview', () => {
    const secret = 'ams_tok_9f8e7d6c5b4a39281706f5e4d3c2b1a0'
    const other = 'ams_tok_0a1b2c3d4e5f60718293a4b5c6d7e8f9'
    const s = t.open()
    const merged = s.cache.putItem('apiTokens', { id: 't1', description: 'CI', token: secret }, null)
    expect(merged).toEqual({ id: 't1', description: 'CI', tokenPreview: maskToken(secret) })
    s.cache.putList(
      'apiTokens',
      '',
      [{ id: 't2', description: 'Laptop', token: other, tokenPreview: 'given' }],
      null
    )
    expect(s.cache.getItem('apiTokens', 't2')?.value).toEqual({
      id: 't2',
      description: 'Laptop',
      tokenPreview: 'given'
    })
    expect(JSON.stringify(s.cache.catalogue('apiTokens'))).not.toContain('ams_tok')
    const onDisk = () =>
      ['', '-wal', '-shm']
        .map((x) => t.file + x)
        .filter(existsSync)
        .map((f) => readFileSync(f).toString('latin1'))
        .join('\n')
    for (const v of [secret, other, secret.slice(4, 24)]) expect(onDisk()).not.toContain(v)
    // Sanity: the same probe does find what IS stored.
    expect(onDisk()).toContain('Laptop')
    s.close()
    expect(onDisk()).not.toContain(secret)
    expect(onDisk()).not.toContain(other)
  })
})

describe('offlineStorePath', () => {
  it('builds the documented path and keeps distinct ids apart', () => {
    expect(offlineStorePath('/data', 'local', '6f1c0a2e-1b2c-4d5e-8f90-a1b2c3d4e5f6')).toBe(
      join('/data', 'cache', 'local--6f1c0a2e-1b2c-4d5e-8f90-a1b2c3d4e5f6.sqlite')
    )
    const pairs: [string, string][] = [
      ['a-', '-b'],
      ['a', '--b'],
      ['a--', 'b'],
      ['A', 'b'],
      ['a', 'b'],
      ['../x', 'y'],
      ['a/b', 'c'],
      ['a%2Fb', 'c']
    ]
    const paths = pairs.map(([p, u]) => offlineStorePath('/data', p, u))
    expect(new Set(paths).size).toBe(pairs.length)
    for (const p of paths) expect(dirname(p)).toBe(join('/data', 'cache'))
    expect(safeSegment('x'.repeat(500)).length).toBeLessThan(100)
  })
})
