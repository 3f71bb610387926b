import { computed } from 'vue'
import { reportWrite, useNotify } from './useErrors'

/**
 * The shown name of an item ("(unnamed)" when it has none) and the save of its edit form:
 * `update(id, patch)`, toasted ("Tool saved", or queued offline as “Change tool “name””). The error
 * is left to the form, which shows it on its fields.
 */
export function useItemSave<P extends { name?: string | null }>(
  item: () => { id: string; name?: string | null | undefined },
  update: (id: string, patch: P) => Promise<{ status: 'done' | 'queued' }>,
  noun: string
) {
  const notify = useNotify()
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1)
  const name = computed(() => item().name || '(unnamed)')
  const save = async (patch: P) => {
    const r = await update(item().id, patch)
    reportWrite(notify, r, `${Noun} saved`, `Change ${noun} “${patch.name ?? name.value}”`)
    return r
  }
  return { name, save }
}
