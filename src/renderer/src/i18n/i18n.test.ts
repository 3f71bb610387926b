// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import { createPinia } from 'pinia'
import { applyLanguage, currentLocale, i18n, loadLocale, loadMessages, resolveLocale, systemLocale } from '.'
import { relativeTime, shortDate } from '../composables/relativeTime'
import LanguageSection from '../components/settings/LanguageSection.vue'

const keys = (o: object, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) =>
    typeof v === 'string' ? [prefix + k] : keys(v as object, `${prefix}${k}.`)
  )

afterEach(async () => {
  await applyLanguage('system')
})

describe('languages', () => {
  it('picks the first system language the app has, by its primary subtag, else English', () => {
    expect(systemLocale(['fr-FR', 'de-AT', 'en-US'])).toBe('de')
    expect(systemLocale(['en-GB'])).toBe('en')
    expect(systemLocale(['ja', 'zh-Hans'])).toBe('en')
    expect(systemLocale([])).toBe('en')
    expect(resolveLocale('de', ['en-US'])).toBe('de')
    expect(resolveLocale('system', ['de-DE'])).toBe('de')
  })

  it('German has every English message, none empty, none left in English by mistake', async () => {
    const en = await loadMessages('en')
    expect(Object.keys(en)).toEqual(expect.arrayContaining(['nav', 'settings', 'time']))
    expect(keys(await loadMessages('de')).sort()).toEqual(keys(en).sort())
    await loadLocale('de')
    const t = (l: 'en' | 'de', k: string) => i18n.global.t(k, {}, { locale: l })
    for (const k of keys(en)) expect(t('de', k), k).not.toBe('')
    // Words that differ between the languages do differ (a copy of the English file would not).
    expect(t('de', 'nav.agents')).toBe('Agenten')
    expect(t('de', 'settings.title')).not.toBe(t('en', 'settings.title'))
  })

  it('switches at run time: messages, <html lang>, the next start, relative times and dates', async () => {
    const hourAgo = new Date(Date.now() - 3 * 3600_000).toISOString()
    expect(relativeTime(hourAgo)).toBe('3 hours ago')
    await applyLanguage('de')
    expect(currentLocale()).toBe('de')
    expect(document.documentElement.lang).toBe('de')
    expect(localStorage.getItem('agent-desk:language')).toBe('de')
    expect(i18n.global.t('nav.settings')).toBe('Einstellungen')
    expect(relativeTime(hourAgo)).toBe('vor 3 Stunden')
    expect(relativeTime(null)).toBe('nie')
    expect(shortDate('2026-03-05T14:07:00.000Z')).toMatch(/05\.03\.2026|5\. März 2026/)
    await applyLanguage('system')
    expect(localStorage.getItem('agent-desk:language')).toBeNull()
  })

  it('the Settings section names each language in its own words', () => {
    const w = mount(LanguageSection, { global: { plugins: [createPinia()] } })
    // No settings loaded yet: "As the system" is chosen; both languages are offered by name.
    expect(w.text()).toContain('Language')
    expect(w.find('[data-testid="settings-language-de"]').text()).toContain('Deutsch')
    expect(w.find('[data-testid="settings-language-en"]').text()).toContain('English')
    expect(w.find('[data-testid="settings-language-system"]').text()).toMatch(
      /As the system \((English|Deutsch)\)/
    )
  })
})
