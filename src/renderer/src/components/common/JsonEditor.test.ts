// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import JsonEditor from './JsonEditor.vue'

describe('JsonEditor', () => {
  it('refuses invalid JSON and non-objects inline, keeping the last valid value', async () => {
    const w = mount(JsonEditor, { props: { modelValue: { a: 1 } } })
    const ta = w.find('textarea[data-testid="json-editor"]')
    expect((ta.element as HTMLTextAreaElement).value).toContain('"a": 1')

    await ta.setValue('{ "a": ')
    expect(w.find('[data-testid="json-error"]').text()).toMatch(/Not valid JSON/)
    expect(w.emitted('update:modelValue')).toBeUndefined()
    expect(w.emitted('validity')?.at(-1)).toEqual([false])
    // What was typed stays.
    expect((ta.element as HTMLTextAreaElement).value).toBe('{ "a": ')

    await ta.setValue('[1, 2]')
    expect(w.find('[data-testid="json-error"]').text()).toMatch(/JSON object/)
    await ta.setValue('"text"')
    expect(w.find('[data-testid="json-error"]').exists()).toBe(true)
    expect(w.emitted('update:modelValue')).toBeUndefined()

    await ta.setValue('{"b": [true]}')
    expect(w.find('[data-testid="json-error"]').exists()).toBe(false)
    expect(w.emitted('update:modelValue')?.at(-1)).toEqual([{ b: [true] }])
  })

  it('empty text means null only when nullable', async () => {
    const w = mount(JsonEditor, { props: { modelValue: { a: 1 } } })
    await w.find('textarea').setValue('  ')
    expect(w.emitted('update:modelValue')?.at(-1)).toEqual([null])
    const strict = mount(JsonEditor, { props: { modelValue: {}, nullable: false } })
    await strict.find('textarea').setValue('')
    expect(strict.find('[data-testid="json-error"]').exists()).toBe(true)
    expect(strict.emitted('update:modelValue')).toBeUndefined()
  })
})
