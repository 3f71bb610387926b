import { computed } from 'vue'
import { useI18n } from 'vue-i18n'
import { reportWrite, useNotify } from './useErrors'

/**
 * The shown name of an item ("(unnamed)" when it has none) and the save of its edit form:
 * `update(id, patch)`, toasted ("Tool saved", or queued offline as “Change tool “name””). The error
 * is left to the form, which shows it on its fields.
 */
export function useItemSave<P extends { name?: string | null }>(
  item: () => { id: string; name?: string | null | undefined },
  update: (id: string, patch: P) => Promise<{ status: 'done' | 'queued' }>,
  noun: string,
  /** The resource's key in locales/<locale>/resources.json (its test id). */
  key: string
) {
  const notify = useNotify()
  const { t } = useI18n()
  const name = computed(() => item().name || t('resources.unnamed'))
  const save = async (patch: P) => {
    const r = await update(item().id, patch)
    reportWrite(notify, r, t(`resources.${key}.saved`), `Change ${noun} “${patch.name ?? name.value}”`)
    return r
  }
  return { name, save }
}
