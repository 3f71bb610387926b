import { defineStore } from 'pinia'
import type { Prompt, PromptCreate, PromptUpdate } from '../../../shared/prompt'
import type { Write } from '../../../shared/ipc'
import { desk } from '../desk'
import { useResourceStore } from '../composables/useResourceStore'

/**
 * Prompts, fed only through `window.agentDesk.prompts`. Listing, creating and deleting are extras a
 * server may not offer; opening a prompt by its id always works (`open`, the id trimmed).
 */
export const usePromptsStore = defineStore('prompts', () => {
  const s = useResourceStore<Prompt>({ resource: 'prompts', list: (input) => desk().prompts.list(input) })
  const { get, create, update, remove } = s.crud<PromptCreate, PromptUpdate>(() => desk().prompts)
  const rename = (id: string, name: string): Promise<Write<Prompt>> => update(id, { name })

  return { ...s.state, get, open: get, create, update, rename, remove, delete: remove }
})
