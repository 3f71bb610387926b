import { defineStore } from 'pinia'
import { computed } from 'vue'
import type { Tag, TagUpdate } from '../../../shared/tag'
import type { Write } from '../../../shared/ipc'
import { desk } from '../desk'
import { useResourceList } from '../composables/useResourceList'

/** Tags, via `window.agentDesk.tags`. Writes are optimistic where the result is predictable. */
export const useTagsStore = defineStore('tags', () => {
  const list = useResourceList<Tag>({ resource: 'tags', list: (input) => desk().tags.list(input) })

  const byId = computed(() => {
    const m = new Map<string, Tag>()
    for (const t of list.items.value) m.set(t.id, t)
    return m
  })

  function find(id: string): Tag | undefined {
    return byId.value.get(id)
  }

  async function ensureLoaded(force = false): Promise<void> {
    if (force || (!list.loaded.value && !list.loading.value)) await list.load()
  }

  async function create(input: { name: string; color: string }): Promise<Write<Tag>> {
    const r = await desk().tags.create(input)
    if (r.data && r.data.id) list.upsert(r.data)
    return r
  }

  async function update(id: string, patch: TagUpdate): Promise<Write<Tag>> {
    const before = find(id)
    if (before) list.upsert({ ...before, ...patch })
    try {
      const r = await desk().tags.update({ id, patch })
      if (r.data && r.data.id) list.upsert({ ...before, ...r.data })
      return r
    } catch (e) {
      if (before) list.upsert(before)
      throw e
    }
  }

  async function remove(id: string): Promise<Write<null>> {
    const before = list.items.value.slice()
    list.remove(id)
    try {
      return await desk().tags.delete({ id })
    } catch (e) {
      list.items.value = before
      throw e
    }
  }

  return {
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
    find,
    create,
    update,
    remove
  }
})
