/**
 * Collecting memberships no list points to (membershipCollector): every such key of the resource
 * is found, whatever its place beside the live ones, and none that a list or a writer holds; each
 * key is found by one search from the one before, not by reading every member.
 */
import { describe, expect, it } from 'vitest'
import { cacheStatements, ORPHAN_KEYS_SQL } from './cacheStatements'
import { openChecked } from './db'
import { membershipCollector, newMembership, releaseMembership } from './memberships'

function withDb<T>(fn: (db: ReturnType<typeof openChecked>) => T): T {
  const db = openChecked(':memory:')
  try {
    return fn(db)
  } finally {
    db.close()
  }
}

describe('membershipCollector', () => {
  it('deletes the members of every key no list points to or a writer holds, in steps, and no other', () =>
    withDb((db) => {
      const s = cacheStatements(db)
      const add = (resource: string, key: string, n: number) =>
        s.addMembers.run(resource, key, 0, JSON.stringify(Array.from({ length: n }, (_, i) => `${key}-${i}`)))
      const writing = newMembership()
      // Orphans sort before, between and after the keys that are held.
      for (const [key, n] of [
        ['#a-old', 3],
        ['#m-live', 2],
        ['#p-old', 5],
        [writing, 4],
        ['#z-old', 1]
      ] as const)
        add('agents', key, n)
      add('documents', '#b-other', 2)
      s.publish.run('agents', 'all', null, '#m-live')
      // A list whose head holds no key keeps its scope's members (a list stored before memberships).
      add('agents', 'agent:1', 2)
      s.putHead.run('agents', 'agent:1', null, null)

      const collect = membershipCollector(s, 'agents')
      let calls = 1
      while (collect(2)) calls++
      const keys = (resource: string) =>
        (
          db
            .prepare(
              'SELECT scope, COUNT(*) FROM list_items WHERE resource = ? GROUP BY scope ORDER BY scope'
            )
            .raw(true)
            .all(resource) as unknown[][]
        ).map(([k, n]) => `${String(k)}:${Number(n)}`)
      expect(keys('agents')).toEqual(['#m-live:2', `${writing}:4`, 'agent:1:2'].sort())
      expect(keys('documents')).toEqual(['#b-other:2'])
      // Nine members two at a time: at least five calls (the last may find nothing more).
      expect(calls).toBeGreaterThanOrEqual(5)
      releaseMembership(writing)
    }))

  it('finds each key by a search of the primary key from the key before it', () =>
    withDb((db) => {
      const plan = (
        db.prepare(`EXPLAIN QUERY PLAN ${ORPHAN_KEYS_SQL}`).all('agents') as { detail: string }[]
      ).map((r) => r.detail)
      // A `SELECT DISTINCT scope … WHERE resource = ?` reads every member of the resource instead.
      expect(plan).toContainEqual(
        expect.stringMatching(
          /^SEARCH list_items USING (COVERING INDEX|PRIMARY KEY) .*\(resource=\? AND scope>\?\)$/
        )
      )
      expect(plan.filter((d) => /^SCAN list_items/.test(d))).toEqual([])
    }))
})
