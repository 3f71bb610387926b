import { reportWrite, useNotify } from './useErrors'

/**
 * The save of an item's edit form: `update(id, patch)`, toasted ("Tool saved", or queued offline
 * as “Change tool “name””). The error is left to the form, which shows it on its fields.
 */
export function useItemSave<P extends { name?: string | null }>(
  update: (id: string, patch: P) => Promise<{ status: 'done' | 'queued' }>,
  noun: string
) {
  const notify = useNotify()
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1)
  return async (id: string, name: string, patch: P) => {
    const r = await update(id, patch)
    reportWrite(notify, r, `${Noun} saved`, `Change ${noun} “${patch.name ?? name}”`)
    return r
  }
}
