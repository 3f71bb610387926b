import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { SettingsPatch, SettingsState, ThemeSetting, UpdateStatus } from '../../../shared/settings'
import type { AppErrorData } from '../../../shared/errors'
import { desk } from '../desk'
import { toAppError } from '../composables/useErrors'

/** The user's settings (kept current by `settings.changed`) and the last "Check for updates". */
export const useSettingsStore = defineStore('settings', () => {
  const state = shallowRef<SettingsState | null>(null)
  const error = shallowRef<AppErrorData | null>(null)
  const update = shallowRef<UpdateStatus | null>(null)
  const checking = ref(false)
  let subscribed = false
  let loading: Promise<void> | null = null

  const theme = computed<ThemeSetting>(() => state.value?.settings.theme ?? 'system')

  function load(): Promise<void> {
    const api = desk()
    if (!subscribed) {
      subscribed = true
      api.on('settings.changed', (s) => {
        state.value = s
      })
    }
    loading ??= api.settings
      .get()
      .then((s) => {
        state.value = s
        error.value = null
      })
      .catch((e: unknown) => {
        error.value = toAppError(e)
      })
      .finally(() => {
        loading = null
      })
    return loading
  }

  async function set(patch: SettingsPatch): Promise<void> {
    state.value = await desk().settings.set(patch)
  }

  async function checkForUpdates(): Promise<UpdateStatus> {
    checking.value = true
    try {
      update.value = await desk().updates.check()
      return update.value
    } finally {
      checking.value = false
    }
  }

  return { state, error, update, checking, theme, load, set, checkForUpdates }
})
