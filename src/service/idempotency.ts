/**
 * `Idempotency-Key` on authenticated POST / PATCH / DELETE: the same key from the same user within
 * 24 h gets the first answer again (same status, same body) and changes nothing a second time.
 *
 * - The key is scoped to the user; a key is 1–255 visible ASCII characters (else 400).
 * - The same key with a different request (method, path, query or JSON body) is a client bug:
 *   422 `idempotency_key_reused`, and nothing runs.
 * - Only successful answers are stored, in the same SQLite transaction as the change itself, so a
 *   stored answer always matches a stored change. A failed request changed nothing: it is not
 *   stored, and sending it again runs it again.
 * - A second request with a key whose first is still running gets 409 (nothing runs).
 * - Rows older than 24 h are pruned (at start and at most once a minute while keys arrive).
 */
import { createHash } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Db } from './db'
import { badRequest, conflict, HttpError } from './http'
import { transaction, type Row } from './sql'

export const migrations = {
  2: `
  CREATE TABLE idempotency_keys (
    user_id TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, key)
  );
  CREATE INDEX idempotency_keys_age ON idempotency_keys(created_at);`
}

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000

/** The request's Idempotency-Key, undefined when absent; 400 when malformed. */
export function idempotencyKey(req: IncomingMessage): string | undefined {
  const raw = req.headers['idempotency-key']
  if (raw === undefined) return undefined
  const value = Array.isArray(raw) ? raw[0] : raw
  if (value === undefined || !/^[\x21-\x7e]{1,255}$/.test(value)) {
    throw badRequest('Idempotency-Key must be 1 to 255 visible ASCII characters', [
      { field: 'Idempotency-Key', message: '1 to 255 visible ASCII characters' }
    ])
  }
  return value
}

/** JSON with object keys sorted, so the same body sent twice has one fingerprint. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`
  }
  return JSON.stringify(v) ?? 'null'
}

export function fingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method}\n${url}\n${canonical(body)}`)
    .digest('base64url')
}

export interface StoredAnswer {
  status: number
  body: string
}

export type IdempotencyStore = ReturnType<typeof idempotencyStorage>

export function idempotencyStorage(db: Db, now: () => number = Date.now) {
  const s = {
    get: db.prepare(
      'SELECT fingerprint, status, body FROM idempotency_keys WHERE user_id = ? AND key = ? AND created_at > ?'
    ),
    put: db.prepare(
      `INSERT INTO idempotency_keys (user_id, key, fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,
         body = excluded.body, created_at = excluded.created_at`
    ),
    prune: db.prepare('DELETE FROM idempotency_keys WHERE created_at <= ?')
  }
  const running = new Set<string>()
  let lastPrune = 0
  const prune = () => {
    lastPrune = now()
    return s.prune.run(lastPrune - IDEMPOTENCY_WINDOW_MS).changes
  }
  prune()

  type Answered = StoredAnswer & { replayed: boolean }

  /**
   * Runs `run` once per (user, key): a stored answer is returned instead of running again.
   * `answer` turns the handler's data into the status and envelope text that are sent and kept.
   * Synchronous when `run` is (the change and its stored answer in one transaction, joining the
   * caller's when there is one); a Promise when `run` returns one (stored after it completes).
   */
  function runOnce(
    userId: string,
    key: string,
    print: string,
    run: () => unknown,
    answer: (data: unknown) => StoredAnswer
  ): Answered | Promise<Answered> {
    if (now() - lastPrune > 60_000) prune()
    const prior = s.get.get(userId, key, now() - IDEMPOTENCY_WINDOW_MS) as Row | undefined
    if (prior) {
      if (prior.fingerprint !== print) {
        // 422: the key was used for a different request; replaying would answer the wrong one.
        throw new HttpError(
          422,
          'idempotency_key_reused',
          'This Idempotency-Key was already used for a different request'
        )
      }
      return { status: Number(prior.status), body: String(prior.body), replayed: true }
    }
    const slot = `${userId}\n${key}`
    if (running.has(slot)) throw conflict('A request with this Idempotency-Key is still being processed')
    running.add(slot)
    let pending: Promise<unknown> | null = null
    try {
      // Every authenticated handler is synchronous today: the change and its stored answer
      // commit together. An asynchronous one is stored after it completes.
      const done = transaction(db, () => {
        const data = run()
        if (data instanceof Promise) {
          pending = data
          return null
        }
        const a = answer(data)
        s.put.run(userId, key, print, a.status, a.body, now())
        return a
      })
      if (done) return { ...done, replayed: false }
    } finally {
      if (!pending) running.delete(slot)
    }
    return (async () => {
      try {
        const a = answer(await (pending as Promise<unknown> | null))
        s.put.run(userId, key, print, a.status, a.body, now())
        return { ...a, replayed: false }
      } finally {
        running.delete(slot)
      }
    })()
  }

  return {
    prune,
    runOnce,
    /** `runOnce`, always as a Promise. */
    once: async (...args: Parameters<typeof runOnce>): Promise<Answered> => runOnce(...args)
  }
}
