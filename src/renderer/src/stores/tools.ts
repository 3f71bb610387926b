import { defineStore } from 'pinia'
import type { Tool, ToolCreate, ToolUpdate } from '../../../shared/tool'
import type { Write } from '../../../shared/ipc'
import { desk } from '../desk'
import { useResourceStore } from '../composables/useResourceStore'

/**
 * Tools, fed only through `window.agentDesk.tools`. A tool list may carry only id, name and type;
 * `get` fills in the rest and merges, so nothing known is blanked.
 */
export const useToolsStore = defineStore('tools', () => {
  const s = useResourceStore<Tool>({ resource: 'tools', list: (input) => desk().tools.list(input) })
  const { get, create, update, remove } = s.crud<ToolCreate, ToolUpdate>(() => desk().tools)
  const rename = (id: string, name: string): Promise<Write<Tool>> => update(id, { name })

  return { ...s.state, get, create, update, rename, remove, delete: remove }
})
