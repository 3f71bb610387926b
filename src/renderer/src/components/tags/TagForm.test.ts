// @vitest-environment happy-dom
import { describe, expect, it, beforeEach } from 'vitest'
import { mount, flushPromises } from '@vue/test-utils'
import TagForm from './TagForm.vue'

describe('TagForm colour', () => {
  beforeEach(() => localStorage.clear())

  it('starts at the default #0E8A16', () => {
    const w = mount(TagForm, { props: { submit: async () => {} } })
    expect(w.find('[data-testid="tag-color-value"]').text()).toBe('#0E8A16')
  })

  it('shows #abc as #AABBCC and sends the normalised colour', async () => {
    const sent: { name: string; color: string }[] = []
    const w = mount(TagForm, {
      props: { submit: async (v: { name: string; color: string }) => void sent.push(v) }
    })
    await w.find('[data-testid="field-name"]').setValue('ops')
    await w.find('[data-testid="field-color"]').setValue('#abc')
    expect(w.find('[data-testid="tag-color-value"]').text()).toBe('#AABBCC')
    expect(w.find('[data-testid="tag-preview"]').attributes('data-color')).toBe('#AABBCC')
    await w.find('[data-testid="save-button"]').trigger('click')
    await flushPromises()
    expect(sent).toEqual([{ name: 'ops', color: '#AABBCC' }])
  })

  it('refuses a colour that is not #RGB or #RRGGBB on the field', async () => {
    const sent: unknown[] = []
    const w = mount(TagForm, { props: { submit: async (v: unknown) => void sent.push(v) } })
    await w.find('[data-testid="field-name"]').setValue('ops')
    await w.find('[data-testid="field-color"]').setValue('#12')
    await w.find('[data-testid="save-button"]').trigger('click')
    await flushPromises()
    expect(sent).toHaveLength(0)
    expect(w.find('[data-testid="error-color"]').text()).toBe('Colour must be #RGB or #RRGGBB')
  })
})
