import { defineStore } from 'pinia'
import { computed } from 'vue'
import type { Prompt, PromptCreate, PromptUpdate } from '../../../shared/prompt'
import type { Read, Write } from '../../../shared/ipc'
import { useResourceList } from '../composables/useResourceList'

function desk() {
  return window.agentDesk
}

/**
 * Prompts, fed only through `window.agentDesk.prompts`. Listing, creating and deleting are extras a
 * server may not offer; opening a prompt by its id always works (`open`).
 */
export const usePromptsStore = defineStore('prompts', () => {
  const list = useResourceList<Prompt>({ resource: 'prompts', list: (input) => desk().prompts.list(input) })

  const byId = computed(() => {
    const m = new Map<string, Prompt>()
    for (const p of list.items.value) m.set(p.id, p)
    return m
  })

  function find(id: string): Prompt | undefined {
    return byId.value.get(id)
  }

  async function ensureLoaded(force = false): Promise<void> {
    if (force || (!list.loaded.value && !list.loading.value)) await list.load()
  }

  /** Opens a prompt by id (always offered) and keeps it in the list. */
  async function get(id: string, cacheOnly = false): Promise<Read<Prompt>> {
    const r = await desk().prompts.get({ id: id.trim(), cacheOnly })
    if (r.data && r.data.id) list.upsert({ ...find(r.data.id), ...r.data })
    return r
  }

  async function create(input: PromptCreate): Promise<Write<Prompt>> {
    const r = await desk().prompts.create(input)
    if (r.data && r.data.id) list.upsert(r.data)
    return r
  }

  async function update(id: string, patch: PromptUpdate): Promise<Write<Prompt>> {
    const before = find(id)
    if (before) list.upsert({ ...before, ...patch })
    try {
      const r = await desk().prompts.update({ id, patch })
      if (r.data && r.data.id) list.upsert({ ...before, ...r.data })
      return r
    } catch (e) {
      if (before) list.upsert(before)
      throw e
    }
  }

  async function rename(id: string, name: string): Promise<Write<Prompt>> {
    return update(id, { name })
  }

  async function remove(id: string): Promise<Write<null>> {
    const before = find(id)
    const index = list.items.value.findIndex((p) => p.id === id)
    list.remove(id)
    try {
      return await desk().prompts.delete({ id })
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
    open: get,
    create,
    update,
    rename,
    remove,
    delete: remove
  }
})
