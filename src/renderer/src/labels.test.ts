// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { computed } from 'vue'
import { AGENT_TYPES, DOCUMENT_TYPES, TOOL_TYPES } from '../../shared/values'
import { applyLanguage } from './i18n'
import { valueLabel, valueOptions, valueTitle } from './labels'

afterEach(async () => {
  await applyLanguage('system')
})

describe('enum labels', () => {
  it('name every value of the contract in words, in the chosen language; unknown values stay as sent', async () => {
    for (const v of [...AGENT_TYPES, ...DOCUMENT_TYPES, ...TOOL_TYPES]) expect(valueLabel(v)).not.toBe('')
    expect(valueLabel('MATHENGINE_ALPHA')).toBe('Math engine (alpha)')
    expect(valueLabel('CHATVENDOR')).toBe('Chat (vendor)')
    expect(valueTitle('MATHENGINE_ALPHA')).toBe('MATHENGINE_ALPHA')
    expect(valueLabel('QUANTUM_V2')).toBe('QUANTUM_V2')
    expect(valueLabel(null)).toBe('')
    expect(valueOptions(['URL', 'PDF'])).toEqual([
      { label: 'Web page', value: 'URL' },
      { label: 'PDF', value: 'PDF' }
    ])
    await applyLanguage('de')
    expect(valueLabel('MATHENGINE_ALPHA')).toBe('Mathe-Engine (Alpha)')
    expect(valueOptions(['URL'])).toEqual([{ label: 'Webseite', value: 'URL' }])
  })

  it('follow a language change where they are shown, though each is looked up once per language', async () => {
    await applyLanguage('en')
    const shown = computed(() => valueLabel('URL'))
    expect(shown.value).toBe('Web page')
    expect(valueLabel('URL')).toBe('Web page')
    await applyLanguage('de')
    expect(shown.value).toBe('Webseite')
    await applyLanguage('en')
    expect(shown.value).toBe('Web page')
    expect(valueLabel('QUANTUM_V2')).toBe('QUANTUM_V2')
  })
})
