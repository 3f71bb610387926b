/**
 * Which cached lists an item belongs to. A list is kept per (resource, scope): scope 'all' is the
 * whole list; the link kinds also keep one list per agent (`agent:<id>`). Only this file knows.
 */
import type { CacheStore, Item, Resource } from './types'

export const WHOLE_LIST = 'all'

/** The scope of a list read: the whole list, or the links of one agent. */
export function listScope(filter?: { agentId?: string | undefined }): string {
  return filter?.agentId ? `agent:${filter.agentId}` : WHOLE_LIST
}

const isLink = (r: Resource) => r === 'agentDocuments' || r === 'agentTools'

/** Lists a change touches: the whole list, and for links the agent's own list. */
export function scopesOf(resource: Resource, item: Record<string, unknown> | null): string[] {
  const scopes = [WHOLE_LIST]
  if (isLink(resource) && item && typeof item.agentId === 'string') scopes.push(listScope(item))
  return scopes
}

export interface PlaceOptions {
  /** Adds a new id at the start of each list holding it (without rewriting the list). */
  prepend?: boolean
  /** The item takes the place of this (temporary) one in its lists. */
  replaceId?: string
}

/**
 * Puts an item in the cache (merged with what is known) and in the lists that hold it. Lists
 * read their items from the item rows, so a listed item needs no list rewrite.
 */
export function placeItem<T extends Item>(
  cache: CacheStore,
  resource: Resource,
  item: T,
  syncedAt: string | null,
  opts: PlaceOptions = {}
): T {
  const merged = cache.putItem(resource, item, syncedAt)
  for (const scope of scopesOf(resource, merged)) {
    if (opts.replaceId && opts.replaceId !== merged.id) {
      // Rare (an offline create reaching the server): the real item takes the temporary one's place.
      const list = cache.getList<{ id: string }>(resource, scope)
      if (!list) continue
      const items = [...list.value]
      const idx = items.findIndex((i) => i.id === opts.replaceId)
      if (idx >= 0) {
        items[idx] = merged
        cache.putList(resource, scope, items, list.syncedAt)
        continue
      }
    }
    if (opts.prepend) cache.addToList(resource, scope, merged.id, 'start')
  }
  return merged
}
