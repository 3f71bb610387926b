import { defineStore } from 'pinia'
import { computed } from 'vue'
import type { Agent, AgentCreate, AgentUpdate } from '../../../shared/agent'
import type { Read, Write } from '../../../shared/ipc'
import { desk } from '../desk'
import { useResourceList } from '../composables/useResourceList'

/** Agents, via `window.agentDesk.agents`: cache-first list, optimistic update/delete with rollback. */
export const useAgentsStore = defineStore('agents', () => {
  const list = useResourceList<Agent>({ resource: 'agents', list: (input) => desk().agents.list(input) })

  const byId = computed(() => {
    const m = new Map<string, Agent>()
    for (const a of list.items.value) m.set(a.id, a)
    return m
  })

  function find(id: string): Agent | undefined {
    return byId.value.get(id)
  }

  async function ensureLoaded(force = false): Promise<void> {
    if (force || (!list.loaded.value && !list.loading.value)) await list.load()
  }

  async function get(id: string, cacheOnly = false): Promise<Read<Agent>> {
    const r = await desk().agents.get({ id, cacheOnly })
    if (r.data && r.data.id) list.upsert({ ...find(id), ...r.data })
    return r
  }

  async function create(input: AgentCreate): Promise<Write<Agent>> {
    const r = await desk().agents.create(input)
    if (r.data && r.data.id) list.upsert(r.data)
    return r
  }

  async function update(id: string, patch: AgentUpdate): Promise<Write<Agent>> {
    const before = find(id)
    if (before) {
      // Optimistic for the plain fields; tags/llm are replaced by the server's answer.
      const optimistic: Agent = { ...before }
      if (patch.name !== undefined) optimistic.name = patch.name.trim()
      if (patch.type !== undefined) optimistic.type = patch.type
      if (patch.hasMemory !== undefined) optimistic.hasMemory = patch.hasMemory
      if (patch.llm !== undefined) optimistic.llm = { ...patch.llm }
      if (patch.promptId !== undefined) optimistic.promptId = patch.promptId
      list.upsert(optimistic)
    }
    try {
      const r = await desk().agents.update({ id, patch })
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
      return await desk().agents.delete({ id })
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
    get,
    create,
    update,
    remove
  }
})
