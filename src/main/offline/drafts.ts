/**
 * The drafts of one profile+user (unsaved form contents), in the same SQLite file as the cache and
 * the outbox: they survive a restart and stay with the profile they were typed in.
 */
import { scrubSecrets, type DraftEntry } from '../../shared/drafts'
import { nowTimestamp } from '../clock'
import type { Db } from './db'
import type { DraftStore } from './types'

export class SqliteDraftStore implements DraftStore {
  constructor(private readonly db: Db) {}

  list(): DraftEntry[] {
    const rows = this.db.prepare('SELECT key, value, saved_at FROM drafts ORDER BY key').raw(true).all() as [
      string,
      string,
      string
    ][]
    const out: DraftEntry[] = []
    for (const [key, value, savedAt] of rows) {
      try {
        const v: unknown = JSON.parse(value)
        if (v && typeof v === 'object' && !Array.isArray(v)) {
          out.push({ key, value: v as Record<string, unknown>, savedAt })
        }
      } catch {
        // an unreadable row is skipped (and replaced by the next save of that form)
      }
    }
    return out
  }

  save(key: string, value: Record<string, unknown>): void {
    this.db
      .prepare(
        'INSERT INTO drafts (key, value, saved_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, saved_at = excluded.saved_at'
      )
      .run(key, JSON.stringify(scrubSecrets(value)), nowTimestamp())
  }

  remove(key: string): void {
    this.db.prepare('DELETE FROM drafts WHERE key = ?').run(key)
  }

  count(): number {
    const row = this.db.prepare('SELECT count(*) FROM drafts').raw(true).get() as [number]
    return Number(row[0])
  }
}
