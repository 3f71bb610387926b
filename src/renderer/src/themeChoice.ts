/**
 * The colour theme the user picked (View › Theme), as kept in localStorage, and the theme it
 * means. Free of Vue: the first frame (firstFrame/shell.ts) reads it before the app runs, and
 * composables/theme.ts keeps it for the app.
 */
export type ThemePreference = 'system' | 'light' | 'dark'

export const THEME_KEY = 'agent-desk:theme'

/** The stored choice ("system" when there is none, or no storage). */
export function storedThemePreference(): ThemePreference {
  try {
    const v = localStorage.getItem(THEME_KEY)
    return v === 'light' || v === 'dark' ? v : 'system'
  } catch {
    return 'system'
  }
}

/** The theme to show: the preference, or the system's when it is "system". */
export function effectiveTheme(pref: ThemePreference, os: string | null | undefined): 'light' | 'dark' {
  if (pref !== 'system') return pref
  return os === 'dark' ? 'dark' : 'light'
}
