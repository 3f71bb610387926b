/**
 * The colour theme the user picked (View › Theme): the system's, light or dark. Kept in
 * localStorage (themeChoice.ts); App.vue applies it.
 */
import { ref } from 'vue'
import { storedThemePreference, THEME_KEY, type ThemePreference } from '../themeChoice'

export { effectiveTheme, type ThemePreference } from '../themeChoice'

export const themePreference = ref<ThemePreference>(storedThemePreference())

export function setThemePreference(t: ThemePreference): void {
  themePreference.value = t
  try {
    if (t === 'system') localStorage.removeItem(THEME_KEY)
    else localStorage.setItem(THEME_KEY, t)
  } catch {
    // Storage unavailable: the choice holds for this run.
  }
}
