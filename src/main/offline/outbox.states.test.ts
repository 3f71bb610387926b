/**
 * The outbox's replay state on disk: the Idempotency-Key made at enqueue, 'uncertain' and
 * 'conflict' entries, waits, and all of it kept across a reopen, an old file without the column
 * and a rebuild that salvages the queue (an uncertain create must never come back as 'pending').
 */
import { join } from 'node:path'
import Database from 'libsql'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SCHEMA_VERSION } from './index'
import { replayOutbox } from './replay'
import { type TempStores, tempStores } from '../../../test/support/offlineStores'
import { AppError } from '../../shared/errors'

let t: TempStores
beforeEach(() => {
  t = tempStores()
})
afterEach(() => t.cleanup())

describe('outbox replay state', () => {
  it('gives every entry its own key, and keeps uncertain, conflict and waiting entries across a reopen', () => {
    const s = t.open()
    const a = s.outbox.enqueue({ channel: 'tools.create', label: 'a', input: { args: { name: 'A' } } })
    const b = s.outbox.enqueue({
      channel: 'tools.create',
      label: 'b',
      input: { args: { name: 'B' } },
      uncertain: { kind: 'timeout', message: 'slow' },
      attempts: 1,
      extra: { key: 'given-key', attemptedAt: '2026-05-01T10:00:00.000Z', knownIds: ['x'] }
    })
    const c = s.outbox.enqueue({ channel: 'tools.update', label: 'c', input: { args: { id: 't' } } })
    s.outbox.markConflict(c.id, { kind: 'conflict', message: 'moved' }, { id: 't', name: 'Theirs' })
    s.outbox.markWaiting(
      a.id,
      { kind: 'rate_limited', message: 'busy: try again in 3 s' },
      '2099-01-01T00:00:00.000Z',
      1
    )
    const keyA = s.outbox.extraOf(a.id).key
    expect(keyA).toMatch(/^[0-9a-f-]{36}$/)
    s.close()

    const again = t.open()
    expect(again.outbox.list()).toMatchObject([
      { id: a.id, status: 'pending', retryAt: '2099-01-01T00:00:00.000Z', error: { kind: 'rate_limited' } },
      { id: b.id, status: 'uncertain', attempts: 1, error: { kind: 'timeout' } },
      { id: c.id, status: 'conflict', server: { id: 't', name: 'Theirs' } }
    ])
    expect(again.outbox.extraOf(a.id).key).toBe(keyA)
    expect(again.outbox.extraOf(b.id)).toMatchObject({ key: 'given-key', knownIds: ['x'] })
    // The user's retry starts the attempt count over and ends the wait.
    again.outbox.markPending(a.id, { resetAttempts: true })
    expect(again.outbox.get(a.id)?.retryAt).toBeUndefined()
  })

  it('adds the column to a version-1 file made before it, keeping its queue', () => {
    const file = join(t.dir, 'old.sqlite')
    const old = new Database(file)
    old.exec(`CREATE TABLE items (seq INTEGER PRIMARY KEY AUTOINCREMENT, resource TEXT NOT NULL, id TEXT NOT NULL, json TEXT NOT NULL, synced_at TEXT, UNIQUE (resource, id));
      CREATE TABLE lists (resource TEXT NOT NULL, scope TEXT NOT NULL, synced_at TEXT, PRIMARY KEY (resource, scope)) WITHOUT ROWID;
      CREATE TABLE list_items (resource TEXT NOT NULL, scope TEXT NOT NULL, position INTEGER NOT NULL, id TEXT NOT NULL, PRIMARY KEY (resource, scope, position)) WITHOUT ROWID;
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, channel TEXT NOT NULL, label TEXT NOT NULL, input TEXT, created_at TEXT NOT NULL, status TEXT NOT NULL, error TEXT, attempts INTEGER NOT NULL DEFAULT 0, temp_id TEXT);
      INSERT INTO outbox (id, channel, label, input, created_at, status) VALUES ('ob-1', 'tools.create', 'Create', '{"args":{"name":"A"}}', '2024-01-01T00:00:00.000Z', 'pending');
      PRAGMA user_version = ${SCHEMA_VERSION};`)
    old.close()
    const s = t.open(file)
    expect(s.rebuilt).toBe(false)
    expect(s.outbox.list()).toMatchObject([{ id: 'ob-1', status: 'pending' }])
    s.outbox.patchExtra('ob-1', { key: 'k' })
    expect(s.outbox.extraOf('ob-1')).toEqual({ key: 'k' })
  })

  it('a rebuild keeps an uncertain entry uncertain, with its key', () => {
    const file = join(t.dir, 'newer.sqlite')
    const s = t.open(file)
    const e = s.outbox.enqueue({
      channel: 'tools.create',
      label: 'b',
      input: { args: { name: 'B' } },
      uncertain: { kind: 'timeout', message: 'slow' },
      extra: { key: 'kept' }
    })
    s.close()
    const db = new Database(file)
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`)
    db.close()
    const rebuilt = t.open(file)
    expect(rebuilt.rebuilt).toBe(true)
    expect(rebuilt.outbox.get(e.id)?.status).toBe('uncertain')
    expect(rebuilt.outbox.extraOf(e.id).key).toBe('kept')
  })

  it('the replay never resends an uncertain or conflicting entry, and holds what depends on it', async () => {
    const s = t.open()
    s.outbox.enqueue({
      channel: 'tools.create',
      label: 'u',
      input: { args: { name: 'U' }, tempId: 'local-u' },
      tempId: 'local-u',
      uncertain: { kind: 'timeout', message: 'slow' }
    })
    s.outbox.enqueue({ channel: 'tools.update', label: 'dep', input: { args: { id: 'local-u' } } })
    const c = s.outbox.enqueue({ channel: 'tools.update', label: 'c', input: { args: { id: 't' } } })
    s.outbox.markConflict(c.id, { kind: 'conflict', message: 'moved' }, {})
    const free = s.outbox.enqueue({ channel: 'tools.delete', label: 'free', input: { args: { id: 'z' } } })
    const seen: string[] = []
    const isConn = (e: unknown) => AppError.is(e) && e.kind === 'network'
    await replayOutbox(
      s.outbox,
      async (entry) => {
        seen.push(entry.label)
        if (entry.status === 'uncertain') return { held: 'uncertain' }
        return undefined
      },
      isConn,
      () => undefined,
      { classify: () => 'refused', waitMs: () => 0 }
    )
    // The uncertain create is only checked (execute sees its status), its dependant waits.
    expect(seen).toEqual(['u', 'free'])
    expect(s.outbox.list().map((e) => [e.label, e.status])).toEqual([
      ['u', 'uncertain'],
      ['dep', 'pending'],
      ['c', 'conflict']
    ])
    expect(s.outbox.get(free.id)).toBeNull()
  })
})
