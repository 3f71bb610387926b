/**
 * The colour theme the user picked (View › Theme): the system's, light or dark. Kept in
 * localStorage; App.vue applies it.
 */
import { ref } from 'vue'

export type ThemePreference = 'system' | 'light' | 'dark'
const KEY = 'agent-desk:theme'

function read(): ThemePreference {
  try {
    const v = localStorage.getItem(KEY)
    return v === 'light' || v === 'dark' ? v : 'system'
  } catch {
    return 'system'
  }
}

export const themePreference = ref<ThemePreference>(read())

export function setThemePreference(t: ThemePreference): void {
  themePreference.value = t
  try {
    if (t === 'system') localStorage.removeItem(KEY)
    else localStorage.setItem(KEY, t)
  } catch {
    // Storage unavailable: the choice holds for this run.
  }
}

/** The theme to show: the preference, or the system's when it is "system". */
export function effectiveTheme(pref: ThemePreference, os: string | null | undefined): 'light' | 'dark' {
  if (pref !== 'system') return pref
  return os === 'dark' ? 'dark' : 'light'
}
