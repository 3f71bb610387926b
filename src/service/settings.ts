/** The service's own key/value settings (the session signing secret). */
import type { Db } from './db'
import { str, type Row } from './sql'

export const migrations = {
  1: `
  CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );`
}

export function settingsStorage(db: Db) {
  const get = db.prepare('SELECT value FROM settings WHERE key = ?')
  const set = db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'
  )
  const del = db.prepare('DELETE FROM settings WHERE key = ?')
  return {
    delete(key: string) {
      del.run(key)
    },
    get(key: string): string | undefined {
      const r = get.get(key) as Row | undefined
      return r ? str(r.value) : undefined
    },
    set(key: string, value: string) {
      set.run(key, value)
    }
  }
}
