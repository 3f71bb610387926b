/**
 * The interface's languages (vue-i18n, Composition API mode): English and German, switchable at
 * run time from Settings. The choice is kept by main (`settings.language`) and mirrored in
 * localStorage so the next start paints in the right language before the settings arrive.
 * Dates, numbers and relative times go through `Intl` in the same locale (relativeTime.ts).
 *
 * Messages live in `locales/<locale>/<area>.json`, one file per area of the app (the area is the
 * first part of a key: `session.signIn`); English first, every locale has the same files and keys,
 * which a test checks. Placeholders are vue-i18n's `{name}`; `|` separates plural forms. The build precompiles them into functions
 * (@intlify/unplugin-vue-i18n), so the app ships vue-i18n's runtime without its message compiler.
 */
import { createI18n } from 'vue-i18n'
import type { LanguageSetting } from '../../../shared/settings'

export const LOCALES = ['en', 'de'] as const
export type Locale = (typeof LOCALES)[number]

/** A locale's messages: areas of nested keys, each leaf a message. */
export interface Messages {
  [key: string]: string | Messages
}
const files = import.meta.glob<Messages>('./locales/*/*.json', { eager: true, import: 'default' })
/** Every locale's messages by area, from the files above. */
export const MESSAGES = Object.fromEntries(
  LOCALES.map((l) => [
    l,
    Object.fromEntries(
      Object.entries(files)
        .filter(([path]) => path.startsWith(`./locales/${l}/`))
        .map(([path, m]) => [path.slice(`./locales/${l}/`.length, -'.json'.length), m])
    )
  ])
) as Record<Locale, Messages>
/** Each locale's own name, as its speakers write it. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', de: 'Deutsch' }

const KEY = 'agent-desk:language'

const isLocale = (v: unknown): v is Locale =>
  typeof v === 'string' && (LOCALES as readonly string[]).includes(v)

/** The first of the system's languages the app has (by primary subtag), else English. */
export function systemLocale(languages: readonly string[]): Locale {
  for (const tag of languages) {
    const primary = tag.toLowerCase().split('-')[0]
    if (isLocale(primary)) return primary
  }
  return 'en'
}

/** The locale a setting means on this system. */
export function resolveLocale(setting: LanguageSetting, languages: readonly string[]): Locale {
  return setting === 'system' ? systemLocale(languages) : setting
}

const systemLanguages = (): readonly string[] =>
  typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language])

function stored(): LanguageSetting {
  try {
    const v = localStorage.getItem(KEY)
    return isLocale(v) ? v : 'system'
  } catch {
    return 'system'
  }
}

export const i18n = createI18n({
  legacy: false,
  locale: resolveLocale(stored(), systemLanguages()),
  fallbackLocale: 'en',
  messages: MESSAGES
})

/** The locale in use now (reactive). */
export const currentLocale = (): Locale => {
  const l = i18n.global.locale.value
  return isLocale(l) ? l : 'en'
}

/** Applies a language setting: messages, `<html lang>`, and the local mirror for the next start. */
export function applyLanguage(setting: LanguageSetting): Locale {
  const locale = resolveLocale(setting, systemLanguages())
  i18n.global.locale.value = locale
  if (typeof document !== 'undefined') document.documentElement.lang = locale
  try {
    if (setting === 'system') localStorage.removeItem(KEY)
    else localStorage.setItem(KEY, setting)
  } catch {
    // Storage unavailable: the choice holds for this run.
  }
  return locale
}

/** The system's locale (for "As the system (Deutsch)"). */
export const systemLocaleNow = (): Locale => systemLocale(systemLanguages())
