/**
 * List memberships by key (cache.ts, listWrite.ts). A list's head names the key of its members in
 * list_items, so a new membership can be written under a new key a step at a time, out of every
 * reader's sight, and taken in one short write; the old one is then deleted a step at a time.
 * Keys being written are kept from that collection (by any store on the file) until released.
 */
import { randomUUID } from 'node:crypto'
import type { CacheStatements } from './cacheStatements'
import type { Resource } from './types'

const writing = new Set<string>()

/** A key no scope can be (scopes are `all` and `agent:<id>`), holding no members yet. */
export const emptyMembership = (): string => `#members:${randomUUID()}`

/** A new key to write members under, kept from collection until released. */
export function newMembership(): string {
  const key = emptyMembership()
  writing.add(key)
  return key
}

export function releaseMembership(key: string): void {
  writing.delete(key)
}

/**
 * Deletes, `limit` rows per call, the members of the resource's memberships that no list points
 * to and nobody is writing: returns whether any may be left. The keys are found at the first call.
 */
export function membershipCollector(s: CacheStatements, resource: Resource): (limit: number) => boolean {
  let keys: string[] | null = null
  return (limit) => {
    keys ??= (s.orphanKeys.all(resource) as unknown[][])
      .map((r) => String(r[0]))
      .filter((key) => !writing.has(key))
    while (keys.length > 0) {
      const key = keys[0] as string
      const deleted = Number(s.dropMembers.run(resource, key, resource, key, limit).changes)
      if (deleted === limit) return true
      keys.shift()
      if (deleted > 0) return keys.length > 0
    }
    return false
  }
}

/** The key of a list's membership (null: no such list). */
export function membershipOf(s: CacheStatements, resource: Resource, scope: string): string | null {
  const head = s.listHead.get(resource, scope) as unknown[] | undefined
  return head ? String(head[1]) : null
}
