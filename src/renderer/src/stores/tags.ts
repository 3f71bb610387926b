import { defineStore } from 'pinia'
import type { Tag, TagUpdate } from '../../../shared/tag'
import { desk } from '../desk'
import { useResourceStore } from '../composables/useResourceStore'

/** Tags, via `window.agentDesk.tags`. Writes are optimistic where the result is predictable. */
export const useTagsStore = defineStore('tags', () => {
  const s = useResourceStore<Tag>({ resource: 'tags', list: (input) => desk().tags.list(input) })
  const { create, update, remove } = s.crud<{ name: string; color: string }, TagUpdate>(() => desk().tags)

  return { ...s.state, create, update, remove }
})
