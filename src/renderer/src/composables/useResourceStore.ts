import { computed } from 'vue'
import type { Read, Write } from '../../../shared/ipc'
import { useResourceList, type ResourceListOptions } from './useResourceList'

/** The usual calls of a `window.agentDesk.<resource>` group (each optional part unused if absent). */
export interface CrudApi<T, C, U> {
  get(input: { id: string; cacheOnly?: boolean }): Promise<Read<T>>
  create(input: C): Promise<Write<T>>
  update(input: { id: string; patch: U }): Promise<Write<T>>
  delete(input: { id: string }): Promise<Write<null>>
}

/**
 * What every resource store shares: the cache-first list (useResourceList), lookup by id, and the
 * write patterns — an answer merged into the list, an optimistic change rolled back when the server
 * refuses it (the error is re-thrown so the form can show it and keep its input), and a delete
 * that puts the item back where it was when it fails.
 *
 * A store passes the `window.agentDesk` calls in; nothing here knows a resource.
 */
export function useResourceStore<T extends { id: string }, R = T>(opts: ResourceListOptions<T, R>) {
  const list = useResourceList<T, R>(opts)

  const byId = computed(() => {
    const m = new Map<string, T>()
    for (const x of list.items.value) m.set(x.id, x)
    return m
  })

  function find(id: string): T | undefined {
    return byId.value.get(id)
  }

  /** Loads once; later calls are no-ops unless `force`. */
  async function ensureLoaded(force = false): Promise<void> {
    if (force || (!list.loaded.value && !list.loading.value)) await list.load()
  }

  /** Keeps what an answer carries, over what is known of the item (a list may carry fewer fields). */
  function keep(data: T | null | undefined, before?: T): void {
    if (data && data.id) list.upsert({ ...(before ?? find(data.id)), ...data })
  }

  /** A read of one item (`get`), kept in the list (unless it was deleted here meanwhile). */
  async function fetched(op: () => Promise<Read<T>>): Promise<Read<T>> {
    const m = list.mark()
    const r = await op()
    if (!(r.data && list.removedSince(r.data.id, m))) keep(r.data)
    return r
  }

  /** A create: the new item joins the list. */
  async function created(op: () => Promise<Write<T>>): Promise<Write<T>> {
    const r = await op()
    keep(r.data)
    return r
  }

  /** An update shown at once as `optimistic(before)`; the answer replaces it, a refusal restores `before`. */
  async function patched(
    id: string,
    optimistic: (before: T) => T,
    op: () => Promise<Write<T>>
  ): Promise<Write<T>> {
    const before = find(id)
    if (before) list.upsert(optimistic(before))
    try {
      const r = await op()
      keep(r.data, before)
      return r
    } catch (e) {
      if (before) list.upsert(before)
      throw e
    }
  }

  /** A delete shown at once; a refusal puts the item back at its place. */
  async function removed(id: string, op: () => Promise<Write<null>>): Promise<Write<null>> {
    const before = find(id)
    const index = list.items.value.findIndex((x) => x.id === id)
    list.remove(id)
    try {
      return await op()
    } catch (e) {
      if (before && !find(id)) list.insertAt(index, before)
      throw e
    }
  }

  /**
   * The reads and writes of a resource whose `window.agentDesk.<resource>` has the usual
   * get / create / update / delete: each kept in the list as above (an update shown at once as
   * `optimistic`, by default the patch over the item).
   */
  function crud<C, U>(
    api: () => CrudApi<T, C, U>,
    optimistic: (before: T, patch: U) => T = (before, patch) => ({ ...before, ...patch })
  ) {
    const get = (id: string, cacheOnly = false): Promise<Read<T>> =>
      fetched(() => api().get({ id: id.trim(), cacheOnly }))
    const create = (input: C): Promise<Write<T>> => created(() => api().create(input))
    const update = (id: string, patch: U): Promise<Write<T>> =>
      patched(
        id,
        (before) => optimistic(before, patch),
        () => api().update({ id, patch })
      )
    const remove = (id: string): Promise<Write<null>> => removed(id, () => api().delete({ id }))
    return { get, create, update, remove }
  }

  /** The list's state and reads, as every store exposes them. */
  const state = {
    items: list.items,
    loading: list.loading,
    error: list.error,
    offline: list.offline,
    syncedAt: list.syncedAt,
    catalogue: list.catalogue,
    loaded: list.loaded,
    load: list.load,
    upsert: list.upsert,
    ensureLoaded,
    find
  }

  return { list, state, find, keep, fetched, created, patched, removed, crud }
}
