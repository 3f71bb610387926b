import { defineStore } from 'pinia'
import type { Tag, TagUpdate } from '../../../shared/tag'
import type { Write } from '../../../shared/ipc'
import { desk } from '../desk'
import { useResourceStore } from '../composables/useResourceStore'

/** Tags, via `window.agentDesk.tags`. Writes are optimistic where the result is predictable. */
export const useTagsStore = defineStore('tags', () => {
  const s = useResourceStore<Tag>({ resource: 'tags', list: (input) => desk().tags.list(input) })

  const create = (input: { name: string; color: string }): Promise<Write<Tag>> =>
    s.created(() => desk().tags.create(input))
  const update = (id: string, patch: TagUpdate): Promise<Write<Tag>> =>
    s.patched(
      id,
      (before) => ({ ...before, ...patch }),
      () => desk().tags.update({ id, patch })
    )
  const remove = (id: string): Promise<Write<null>> => s.removed(id, () => desk().tags.delete({ id }))

  return { ...s.state, create, update, remove }
})
