import { defineStore } from 'pinia'
import { computed } from 'vue'
import type { Tool, ToolCreate, ToolUpdate } from '../../../shared/tool'
import type { Read, Write } from '../../../shared/ipc'
import { useResourceList } from '../composables/useResourceList'

function desk() {
  return window.agentDesk
}

/**
 * Tools, fed only through `window.agentDesk.tools`. A tool list may carry only id, name and type;
 * `get` fills in the rest and merges, so nothing known is blanked.
 */
export const useToolsStore = defineStore('tools', () => {
  const list = useResourceList<Tool>({ resource: 'tools', list: (input) => desk().tools.list(input) })

  const byId = computed(() => {
    const m = new Map<string, Tool>()
    for (const t of list.items.value) m.set(t.id, t)
    return m
  })

  function find(id: string): Tool | undefined {
    return byId.value.get(id)
  }

  async function ensureLoaded(force = false): Promise<void> {
    if (force || (!list.loaded.value && !list.loading.value)) await list.load()
  }

  async function get(id: string, cacheOnly = false): Promise<Read<Tool>> {
    const r = await desk().tools.get({ id, cacheOnly })
    if (r.data && r.data.id) list.upsert({ ...find(id), ...r.data })
    return r
  }

  async function create(input: ToolCreate): Promise<Write<Tool>> {
    const r = await desk().tools.create(input)
    if (r.data && r.data.id) list.upsert(r.data)
    return r
  }

  async function update(id: string, patch: ToolUpdate): Promise<Write<Tool>> {
    const before = find(id)
    if (before) list.upsert({ ...before, ...patch })
    try {
      const r = await desk().tools.update({ id, patch })
      if (r.data && r.data.id) list.upsert({ ...before, ...r.data })
      return r
    } catch (e) {
      if (before) list.upsert(before)
      throw e
    }
  }

  async function rename(id: string, name: string): Promise<Write<Tool>> {
    return update(id, { name })
  }

  async function remove(id: string): Promise<Write<null>> {
    const before = find(id)
    const index = list.items.value.findIndex((t) => t.id === id)
    list.remove(id)
    try {
      return await desk().tools.delete({ id })
    } catch (e) {
      if (before) {
        const next = list.items.value.slice()
        next.splice(Math.max(0, Math.min(index, next.length)), 0, before)
        list.items.value = next
      }
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
    get,
    create,
    update,
    rename,
    remove,
    delete: remove
  }
})
