import { onScopeDispose, getCurrentScope, ref, shallowRef, triggerRef, type Ref } from 'vue'
import type { AppErrorData } from '../../../shared/errors'
import type { Read } from '../../../shared/ipc'
import { toAppError } from './useErrors'
import { onSessionReset } from './sessionBus'
import { takeEarlyList } from '../earlyReads'
import { listShown } from './afterStart'
import { oneAtATime } from './oneAtATime'

export interface ResourceList<T extends { id: string }> {
  items: Ref<T[]>
  loading: Ref<boolean>
  error: Ref<AppErrorData | null>
  offline: Ref<boolean>
  syncedAt: Ref<string | null>
  catalogue: Ref<boolean>
  loaded: Ref<boolean>
  /** Stale-while-revalidate: the cache first (paints at once), then the network answer replaces it. */
  load: () => Promise<void>
  upsert: (item: T) => void
  remove: (id: string) => void
  /** Puts an item back at `index` (a delete the server refused). */
  insertAt: (index: number, item: T) => void
  /** Taken before a read: `removedSince(id, mark)` tells whether the item was removed here since. */
  mark: () => number
  removedSince: (id: string, mark: number) => boolean
}

/**
 * A list of one resource with cache-first loading. Subscribes to `data.changed` for `resource`
 * and reloads. Uses a shallowRef so 10,000 items are not made deeply reactive.
 */
export interface ResourceListOptions<T, R = T> {
  /** The IPC namespace (`agents`, `apiTokens`…): `data.changed` events and early reads use it. */
  resource: string
  /** `window.agentDesk.<resource>.list`. */
  list: (input?: { cacheOnly?: boolean }) => Promise<Read<R[]>>
  /** Turns what main sends into the items the store keeps (every answer, the early one too). */
  view?: (r: Read<R[]>) => Read<T[]>
}

export function useResourceList<T extends { id: string }, R = T>(
  opts: ResourceListOptions<T, R>
): ResourceList<T> {
  const view = opts.view ?? ((r: Read<R[]>) => r as unknown as Read<T[]>)
  const list = async (input?: { cacheOnly?: boolean }) => view(await opts.list(input))
  const items = shallowRef<T[]>([])
  const loading = ref(false)
  const error = shallowRef<AppErrorData | null>(null)
  const offline = ref(false)
  const syncedAt = ref<string | null>(null)
  const catalogue = ref(false)
  const loaded = ref(false)
  let generation = 0
  // Items removed here (a delete), by the count of removals then: an answer read before a
  // removal does not bring the item back.
  let removals = 0
  const removedAt = new Map<string, number>()
  const removedSince = (id: string, m: number) => (removedAt.get(id) ?? 0) > m
  // Items written here (a create, an update, a read of one item), by the count of writes then: an
  // answer read before the write neither hides a created item nor shows the item as it was.
  let writes = 0
  const writtenAt = new Map<string, number>()

  /** The list answer, less what was removed and with what was written here since it was asked. */
  function current(data: T[], m: number, w: number): T[] {
    let out = removals === m ? data : data.filter((x) => !removedSince(x.id, m))
    if (writes === w) return out
    const local = new Map<string, T>()
    for (const x of items.value) if ((writtenAt.get(x.id) ?? 0) > w) local.set(x.id, x)
    if (local.size === 0) return out
    out = out.map((x) => {
      const mine = local.get(x.id)
      if (!mine) return x
      local.delete(x.id)
      return mine
    })
    return local.size ? [...local.values(), ...out] : out
  }

  function apply(r: Read<T[]>, m: number, w: number): void {
    const data = Array.isArray(r.data) ? r.data : []
    items.value = current(data, m, w)
    // Only the latest load applies, and the next one is asked after every write so far.
    writtenAt.clear()
    offline.value = !!r.offline
    syncedAt.value = r.syncedAt ?? null
    catalogue.value = !!r.catalogue
    loaded.value = true
    listShown()
  }

  // Loads do not overlap: one asked while another runs is made once after it (oneAtATime).
  const loads = oneAtATime(loadOnce)
  const load = () => loads.run()

  async function loadOnce(): Promise<void> {
    const gen = ++generation
    const m = removals
    const w = writes
    loading.value = true
    error.value = null
    try {
      // 1. Cache: paint at once (ignore failures, the network read decides). An early answer that
      //    has come is applied before the first await, so the view's first render shows it.
      if (!loaded.value) {
        const useCached = (cached: Read<T[]>) => {
          if (gen === generation && !loaded.value && Array.isArray(cached.data) && cached.data.length > 0) {
            apply(cached, m, w)
            performance.mark(`agent-desk:list:${opts.resource}`)
          }
        }
        const early = takeEarlyList<R>(opts.resource)
        if (early && 'value' in early) useCached(view(early.value))
        else {
          try {
            useCached(early ? view(await early.promise) : await list({ cacheOnly: true }))
          } catch {
            /* the network read below reports */
          }
        }
      }
      // 2. Network (falls back to cache in main when offline).
      const fresh = await list()
      if (gen === generation) apply(fresh, m, w)
    } catch (e) {
      if (gen === generation) {
        error.value = toAppError(e)
        loaded.value = true
      }
    } finally {
      if (gen === generation) loading.value = false
    }
  }

  function upsert(item: T): void {
    removedAt.delete(item.id)
    writtenAt.set(item.id, ++writes)
    const list = items.value
    const i = list.findIndex((x) => x.id === item.id)
    if (i >= 0) {
      const next = list.slice()
      next[i] = item
      items.value = next
    } else {
      items.value = [item, ...list]
    }
    triggerRef(items)
  }

  function remove(id: string): void {
    removedAt.delete(id)
    writtenAt.delete(id)
    removedAt.set(id, ++removals)
    const next = items.value.filter((x) => x.id !== id)
    if (next.length !== items.value.length) items.value = next
  }

  function insertAt(index: number, item: T): void {
    removedAt.delete(item.id)
    writtenAt.set(item.id, ++writes)
    const next = items.value.filter((x) => x.id !== item.id)
    next.splice(Math.max(0, Math.min(index, next.length)), 0, item)
    items.value = next
  }

  const api = typeof window !== 'undefined' ? window.agentDesk : undefined
  if (api && typeof api.on === 'function') {
    const off = api.on('data.changed', (p) => {
      if (p && p.resource === opts.resource) void load()
    })
    if (getCurrentScope()) onScopeDispose(off)
  }

  const offReset = onSessionReset(() => {
    generation++
    loads.reset()
    removedAt.clear()
    writtenAt.clear()
    items.value = []
    loading.value = false
    error.value = null
    offline.value = false
    syncedAt.value = null
    catalogue.value = false
    loaded.value = false
  })
  if (getCurrentScope()) onScopeDispose(offReset)

  return {
    items,
    loading,
    error,
    offline,
    syncedAt,
    catalogue,
    loaded,
    load,
    upsert,
    remove,
    insertAt,
    mark: () => removals,
    removedSince
  }
}
