/**
 * Sign-out for session tokens: a deny-list of token ids (`jti`), kept in SQLite until the token
 * would have expired anyway, then pruned.
 *
 * Why a deny-list and not a per-user epoch: signing out on one device (or one client of a CLI
 * service) ends that token only; the user's other sessions stay. The list stays small because a
 * row lives no longer than the token it revokes (30 days for the CLI, 12 h for the Local workspace).
 *
 * Every authenticated request asks whether its session was revoked. The answer "not revoked" is
 * kept in memory per token id, so a request asks SQLite nothing: a sign-out through this service
 * drops its token id from that memory at once, and a commit by any other connection to the file
 * (another process signing a session out) empties it (`data_version` changed). "Revoked" is never
 * kept: it is asked of the table each time, which pruning then answers correctly.
 */
import type { Db } from './db'

export const migrations = {
  2: `
  CREATE TABLE revoked_sessions (
    jti TEXT PRIMARY KEY,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX revoked_sessions_expiry ON revoked_sessions(expires_at);`
}

/** How many "not revoked" answers are kept (then forgotten all at once and asked again). */
const MAX_REMEMBERED = 10_000

export type Revocations = ReturnType<typeof revocationStorage>

export function revocationStorage(db: Db, now: () => number = Date.now) {
  const s = {
    add: db.prepare('INSERT OR IGNORE INTO revoked_sessions (jti, expires_at) VALUES (?, ?)'),
    has: db.prepare('SELECT 1 AS x FROM revoked_sessions WHERE jti = ?'),
    prune: db.prepare('DELETE FROM revoked_sessions WHERE expires_at <= ?')
  }
  let lastPrune = 0
  /** Token ids known not to be revoked, as of other connections' `seenVersion`. */
  const notRevoked = new Set<string>()
  let seenVersion = db.foreignVersion()
  return {
    /** Revokes a token id until `expSeconds` (its expiry); prunes expired rows now and then. */
    revoke(jti: string, expSeconds: number) {
      notRevoked.delete(jti)
      s.add.run(jti, expSeconds)
      const t = now()
      if (t - lastPrune > 60_000) {
        lastPrune = t
        s.prune.run(Math.floor(t / 1000))
      }
    },
    isRevoked(jti: string): boolean {
      const version = db.foreignVersion()
      if (version !== seenVersion) {
        notRevoked.clear()
        seenVersion = version
      }
      if (notRevoked.has(jti)) return false
      if (s.has.get(jti) !== undefined) return true
      if (notRevoked.size >= MAX_REMEMBERED) notRevoked.clear()
      notRevoked.add(jti)
      return false
    },
    /** Removes rows whose tokens have expired; returns how many. */
    prune(): number {
      return s.prune.run(Math.floor(now() / 1000)).changes
    }
  }
}
