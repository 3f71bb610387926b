/**
 * Deletes made while a read was under way. A read of a list or an item that left for the server
 * before the user's delete reached it can answer with the deleted item; stored as it came, that
 * answer would bring the item back into the local copy (and the lists) after the delete. Reads take
 * a mark before they go out and drop what was deleted since.
 *
 * Kept in memory per cache (a read and the delete it races happen in the same run).
 */
import type { CacheStore, Resource } from './types'

interface Log {
  seq: number
  /** `resource\0id` → the seq of its last delete (oldest first; bounded). */
  removed: Map<string, number>
}

const MAX_REMEMBERED = 10_000
const logs = new WeakMap<CacheStore, Log>()

function logOf(cache: CacheStore): Log {
  let log = logs.get(cache)
  if (!log) {
    log = { seq: 0, removed: new Map() }
    logs.set(cache, log)
  }
  return log
}

const keyOf = (resource: Resource, id: string) => `${resource}\0${id}`

/** Removes the item from the local copy and remembers that it was deleted (see readers below). */
export function removeDeleted(cache: CacheStore, resource: Resource, id: string): void {
  cache.removeItem(resource, id)
  const log = logOf(cache)
  const key = keyOf(resource, id)
  log.removed.delete(key)
  log.removed.set(key, ++log.seq)
  if (log.removed.size > MAX_REMEMBERED) {
    const oldest = log.removed.keys().next().value
    if (oldest !== undefined) log.removed.delete(oldest)
  }
}

/** Taken before a read leaves: what is deleted after it counts as deleted during the read. */
export function removalMark(cache: CacheStore): number {
  return logOf(cache).seq
}

/** Whether the item was deleted after `mark` was taken. */
export function removedSince(cache: CacheStore, resource: Resource, id: string, mark: number): boolean {
  return (logOf(cache).removed.get(keyOf(resource, id)) ?? 0) > mark
}
