import { defineStore } from 'pinia'
import type { Tool, ToolCreate, ToolUpdate } from '../../../shared/tool'
import type { Read, Write } from '../../../shared/ipc'
import { desk } from '../desk'
import { useResourceStore } from '../composables/useResourceStore'

/**
 * Tools, fed only through `window.agentDesk.tools`. A tool list may carry only id, name and type;
 * `get` fills in the rest and merges, so nothing known is blanked.
 */
export const useToolsStore = defineStore('tools', () => {
  const s = useResourceStore<Tool>({ resource: 'tools', list: (input) => desk().tools.list(input) })

  const get = (id: string, cacheOnly = false): Promise<Read<Tool>> =>
    s.fetched(() => desk().tools.get({ id, cacheOnly }))
  const create = (input: ToolCreate): Promise<Write<Tool>> => s.created(() => desk().tools.create(input))
  const update = (id: string, patch: ToolUpdate): Promise<Write<Tool>> =>
    s.patched(
      id,
      (before) => ({ ...before, ...patch }),
      () => desk().tools.update({ id, patch })
    )
  const rename = (id: string, name: string): Promise<Write<Tool>> => update(id, { name })
  const remove = (id: string): Promise<Write<null>> => s.removed(id, () => desk().tools.delete({ id }))

  return { ...s.state, get, create, update, rename, remove, delete: remove }
})
