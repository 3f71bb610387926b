/**
 * The SQL the cache runs, prepared once per connection (SqliteCacheStore's statements). Reads
 * return raw rows (arrays), so no object is built per row.
 */
import { type Db, preparedOnUse } from './db'

/** Membership keys of resource ?1 that no list points to (CacheStatements.orphanKeys). */
export const ORPHAN_KEYS_SQL = `WITH RECURSIVE k(scope) AS (
    SELECT (SELECT MIN(scope) FROM list_items WHERE resource = ?1)
    UNION ALL
    SELECT (SELECT MIN(scope) FROM list_items WHERE resource = ?1 AND scope > k.scope)
    FROM k WHERE k.scope IS NOT NULL
  )
  SELECT scope FROM k WHERE scope IS NOT NULL
    AND scope NOT IN (SELECT COALESCE(members, scope) FROM lists WHERE resource = ?1)`

/** A list's head: its sync time and the key of its membership (CacheStatements.listHead). */
export const LIST_HEAD_SQL =
  'SELECT synced_at, COALESCE(members, scope) FROM lists WHERE resource = ? AND scope = ?'

/** Members of a list's membership (CacheStatements.memberCount). */
export const MEMBER_COUNT_SQL = 'SELECT COUNT(*) FROM list_items WHERE resource = ? AND scope = ?'

/** A member `l`'s item row `i`: through its link (`item_seq`, db.ts), or by id when it has none. */
export const MEMBER_ROW = `items i ON i.seq = COALESCE(l.item_seq,
  (SELECT seq FROM items o WHERE o.resource = l.resource AND o.id = l.id))`

/** The item rows of a list's members (bound: resource, scope). */
const LIST_MEMBERS = `SELECT i.json FROM lists h
  JOIN list_items l ON l.resource = h.resource AND l.scope = COALESCE(h.members, h.scope)
  JOIN ${MEMBER_ROW}
  WHERE h.resource = ? AND h.scope = ?`

/** Of them, those with ids in [?, ?) (CacheStatements.listRowsWithIds). */
export const LIST_ROWS_WITH_IDS_SQL = `${LIST_MEMBERS} AND l.id >= ? AND l.id < ? ORDER BY l.position`

/**
 * The cache's statements, each prepared when first used: a store opened to read one list prepares
 * the few it reads with, not all 22 (~1 ms of each cold open).
 */
export function cacheStatements(db: Db) {
  return preparedOnUse(db, {
    itemJson: () => db.prepare('SELECT json, synced_at FROM items WHERE resource = ? AND id = ?').raw(true),
    // Changes when another connection commits to the file (not for this one's own commits).
    dataVersion: () => db.prepare('PRAGMA data_version').raw(true),
    itemsJson: () =>
      db
        .prepare(
          'SELECT json, synced_at, id FROM items WHERE resource = ? AND id IN (SELECT value FROM json_each(?))'
        )
        .raw(true),
    // An item's sync time: its own, or that of the newest stored list holding it when newer (a
    // list read confirms its items without rewriting each row).
    itemSynced: () =>
      db
        .prepare(
          `SELECT i.json, i.synced_at, (SELECT MAX(h.synced_at) FROM list_items m
           JOIN lists h ON h.resource = m.resource AND COALESCE(h.members, h.scope) = m.scope
           WHERE m.resource = i.resource AND m.id = i.id)
         FROM items i WHERE i.resource = ? AND i.id = ?`
        )
        .raw(true),
    upsertItem: () =>
      db.prepare(
        `INSERT INTO items (resource, id, json, synced_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (resource, id) DO UPDATE SET json = excluded.json, synced_at = excluded.synced_at`
      ),
    deleteItem: () => db.prepare('DELETE FROM items WHERE resource = ? AND id = ?'),
    // A list's head: its sync time and the key of its membership in list_items (`members`; the
    // scope itself in files written before keys existed).
    listHead: () => db.prepare(LIST_HEAD_SQL).raw(true),
    // Each member's item row through its link (`item_seq`, db.ts), or by id when it has none.
    listRows: () => db.prepare(`${LIST_MEMBERS} ORDER BY l.position`).raw(true),
    // Of them, those with ids in [?, ?): found through the index on ids (list_items_id), so a list
    // of 100,000 is not read for its few members created offline (CacheStore.localMembers).
    listRowsWithIds: () => db.prepare(LIST_ROWS_WITH_IDS_SQL).raw(true),
    // The sync time; a new list gets the membership key given (an empty one).
    putHead: () =>
      db.prepare(
        `INSERT INTO lists (resource, scope, synced_at, members) VALUES (?, ?, ?, ?)
       ON CONFLICT (resource, scope) DO UPDATE SET synced_at = excluded.synced_at`
      ),
    // The sync time and the membership key.
    publish: () =>
      db.prepare(
        `INSERT INTO lists (resource, scope, synced_at, members) VALUES (?, ?, ?, ?)
       ON CONFLICT (resource, scope) DO UPDATE SET synced_at = excluded.synced_at, members = excluded.members`
      ),
    clearMembers: () => db.prepare('DELETE FROM list_items WHERE resource = ? AND scope = ?'),
    // A member names its item row too (`item_seq`, see db.ts).
    addMember: () =>
      db.prepare(
        `INSERT INTO list_items (resource, scope, position, id, item_seq)
       SELECT ?1, ?2, ?3, ?4, (SELECT seq FROM items WHERE resource = ?1 AND id = ?4)`
      ),
    // Members from position `from` on: one statement for a step's ids.
    addMembers: () =>
      db.prepare(
        `INSERT INTO list_items (resource, scope, position, id, item_seq)
       SELECT ?1, ?2, ?3 + j.key, j.value, i.seq FROM json_each(?4) j
       LEFT JOIN items i ON i.resource = ?1 AND i.id = j.value`
      ),
    // Membership keys no list points to (an old membership, or one a crash left half-written).
    // Each key found by one search of the primary key from the one before (a skip scan): a
    // DISTINCT read every member (100,000 agents in two memberships: ~30 ms in the step that
    // ends a long list's write), this reads one per key.
    orphanKeys: () => db.prepare(ORPHAN_KEYS_SQL).raw(true),
    dropMembers: () =>
      db.prepare(
        `DELETE FROM list_items WHERE resource = ? AND scope = ? AND position IN
         (SELECT position FROM list_items WHERE resource = ? AND scope = ? ORDER BY position LIMIT ?)`
      ),
    memberCount: () => db.prepare(MEMBER_COUNT_SQL).raw(true),
    removeMember: () => db.prepare('DELETE FROM list_items WHERE resource = ? AND id = ?'),
    totalChanges: () => db.prepare('SELECT total_changes()').raw(true),
    memberIds: () =>
      db.prepare('SELECT id FROM list_items WHERE resource = ? AND scope = ? ORDER BY position').raw(true),
    membersFirst: () =>
      db
        .prepare(
          'SELECT position, id FROM list_items WHERE resource = ? AND scope = ? ORDER BY position LIMIT ?'
        )
        .raw(true),
    membersAfter: () =>
      db
        .prepare(
          `SELECT position, id FROM list_items WHERE resource = ? AND scope = ? AND position > ?
         ORDER BY position LIMIT ?`
        )
        .raw(true),
    // The same, each with its row's JSON (a member names its row by `item_seq`).
    memberRowsFirst: () =>
      db
        .prepare(
          `SELECT m.position, m.id, i.json FROM list_items m LEFT JOIN items i ON i.seq = m.item_seq
         WHERE m.resource = ? AND m.scope = ? ORDER BY m.position LIMIT ?`
        )
        .raw(true),
    memberRowsAfter: () =>
      db
        .prepare(
          `SELECT m.position, m.id, i.json FROM list_items m LEFT JOIN items i ON i.seq = m.item_seq
         WHERE m.resource = ? AND m.scope = ? AND m.position > ? ORDER BY m.position LIMIT ?`
        )
        .raw(true),
    catalogue: () => db.prepare('SELECT json FROM items WHERE resource = ? ORDER BY seq DESC').raw(true),
    // Names for the palette, a step at a time (newest first, before a seq): SQLite reads the two
    // fields, so no item is parsed in JavaScript.
    names: () =>
      db
        .prepare(
          `SELECT seq, id, json_extract(json, '$.name'), json_extract(json, '$.description') FROM items
         WHERE resource = ? AND seq < ? ORDER BY seq DESC LIMIT ?`
        )
        .raw(true),
    getMeta: () => db.prepare('SELECT value FROM meta WHERE key = ?').raw(true),
    setMeta: () =>
      db.prepare(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'
      )
  })
}

export type CacheStatements = ReturnType<typeof cacheStatements>
