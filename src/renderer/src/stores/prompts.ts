import { defineStore } from 'pinia'
import type { Prompt, PromptCreate, PromptUpdate } from '../../../shared/prompt'
import type { Read, Write } from '../../../shared/ipc'
import { desk } from '../desk'
import { useResourceStore } from '../composables/useResourceStore'

/**
 * Prompts, fed only through `window.agentDesk.prompts`. Listing, creating and deleting are extras a
 * server may not offer; opening a prompt by its id always works (`open`).
 */
export const usePromptsStore = defineStore('prompts', () => {
  const s = useResourceStore<Prompt>({ resource: 'prompts', list: (input) => desk().prompts.list(input) })

  /** Opens a prompt by id (always offered) and keeps it in the list. */
  const get = (id: string, cacheOnly = false): Promise<Read<Prompt>> =>
    s.fetched(() => desk().prompts.get({ id: id.trim(), cacheOnly }))
  const create = (input: PromptCreate): Promise<Write<Prompt>> =>
    s.created(() => desk().prompts.create(input))
  const update = (id: string, patch: PromptUpdate): Promise<Write<Prompt>> =>
    s.patched(
      id,
      (before) => ({ ...before, ...patch }),
      () => desk().prompts.update({ id, patch })
    )
  const rename = (id: string, name: string): Promise<Write<Prompt>> => update(id, { name })
  const remove = (id: string): Promise<Write<null>> => s.removed(id, () => desk().prompts.delete({ id }))

  return { ...s.state, get, open: get, create, update, rename, remove, delete: remove }
})
