/**
 * The interface's languages (vue-i18n, Composition API mode): English and German, switchable at
 * run time from Settings. The choice is kept by main (`settings.language`) and mirrored in
 * localStorage so the next start paints in the right language before the settings arrive.
 * Dates, numbers and relative times go through `Intl` in the same locale (relativeTime.ts).
 *
 * Messages live in `locales/<locale>/<area>.json`, one file per area of the app (the area is the
 * first part of a key: `session.signIn`); English first, every locale has the same files and keys,
 * which a test checks. Placeholders are vue-i18n's `{name}`; `|` separates plural forms. The build
 * precompiles them into functions (@intlify/unplugin-vue-i18n), so the app ships vue-i18n's runtime
 * without its message compiler. English (the fallback) is part of the first paint; another locale
 * is one chunk (its `index.ts`), loaded before the first frame when it was the last run's language.
 */
import { createI18n } from 'vue-i18n'
import type { LanguageSetting } from '../../../shared/settings'

export const LOCALES = ['en', 'de'] as const
export type Locale = (typeof LOCALES)[number]

/** A locale's messages: areas of nested keys, each leaf a message. */
export interface Messages {
  [key: string]: string | Messages
}
/** English, the fallback, is in the first-paint code; every other locale is one chunk of its own. */
const english = import.meta.glob<Messages>('./locales/en/*.json', { eager: true, import: 'default' })
const others = import.meta.glob<Messages>('./locales/*/index.ts', { import: 'default' })
const ENGLISH: Messages = Object.fromEntries(
  Object.entries(english).map(([path, m]) => [path.slice('./locales/en/'.length, -'.json'.length), m])
)

/** Every message of a locale by area (loading its chunk when it is not English). */
export async function loadMessages(l: Locale): Promise<Messages> {
  if (l === 'en') return ENGLISH
  const load = others[`./locales/${l}/index.ts`]
  if (!load) throw new Error(`No messages for ${l}`)
  return load()
}

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
  locale: 'en',
  fallbackLocale: 'en',
  // Every locale is known to the types; all but English are set when loaded (loadLocale).
  messages: { en: ENGLISH } as Record<Locale, Messages>
})

const loaded = new Set<Locale>(['en'])
/** Makes the locale's messages available (once); resolves when they are. */
export async function loadLocale(l: Locale): Promise<void> {
  if (loaded.has(l)) return
  i18n.global.setLocaleMessage(l, await loadMessages(l))
  loaded.add(l)
}

function use(locale: Locale): void {
  i18n.global.locale.value = locale
  if (typeof document !== 'undefined') document.documentElement.lang = locale
}

/**
 * The language of the last run (kept in localStorage), set before the first paint: English at
 * once; another locale once its chunk has loaded (null when nothing is to be waited for).
 */
export function startLanguage(): Promise<void> | null {
  const locale = resolveLocale(stored(), systemLanguages())
  if (loaded.has(locale)) {
    use(locale)
    return null
  }
  return loadLocale(locale)
    .then(() => use(locale))
    .catch(() => undefined)
}

/** The locale in use now (reactive). */
export const currentLocale = (): Locale => {
  const l = i18n.global.locale.value
  return isLocale(l) ? l : 'en'
}

/** Applies a language setting: messages, `<html lang>`, and the local mirror for the next start. */
export async function applyLanguage(setting: LanguageSetting): Promise<Locale> {
  const locale = resolveLocale(setting, systemLanguages())
  await loadLocale(locale)
  use(locale)
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
