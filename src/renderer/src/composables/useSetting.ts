import { computed } from 'vue'
import { useI18n } from 'vue-i18n'
import type { Settings, SettingsPatch } from '../../../shared/settings'
import { useSettingsStore } from '../stores/settings'
import { useNotify } from './useErrors'

/**
 * One setting as a Settings section shows it: its value, and a change that says in the user's
 * language (the message key `failKey`) when main refuses it.
 */
export function useSetting<K extends keyof Settings>(key: K, fallback: Settings[K], failKey: string) {
  const settings = useSettingsStore()
  const notify = useNotify()
  const { t } = useI18n()
  const value = computed<Settings[K]>(() => settings.state?.settings[key] ?? fallback)
  async function change(next: Settings[K]): Promise<void> {
    try {
      await settings.set({ [key]: next } as SettingsPatch)
    } catch (e) {
      notify.error(e, t(failKey))
    }
  }
  return { value, change }
}
