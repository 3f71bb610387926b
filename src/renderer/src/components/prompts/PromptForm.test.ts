// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import PromptForm from './PromptForm.vue'
import type { Prompt } from '../../../../shared/prompt'

const wrappers: VueWrapper[] = []
afterEach(() => {
  while (wrappers.length) wrappers.pop()?.unmount()
})

function mountForm(save: (input: unknown) => Promise<unknown>, prompt: Prompt | null = null) {
  const w = mount(PromptForm, { props: { save, prompt }, attachTo: document.body })
  wrappers.push(w)
  return w
}

const variables = (w: VueWrapper) => w.findAll('[data-testid="prompt-variable"]').map((t) => t.text())

describe('PromptForm', () => {
  it('derives the variables live from the placeholders as the template is typed', async () => {
    const save = vi.fn<(input: unknown) => Promise<unknown>>(async () => ({ status: 'done' }))
    const w = mountForm(save)
    const template = w.find('[data-testid="field-template"]')
    await template.setValue('Hello {name}')
    expect(variables(w)).toEqual(['name'])
    await template.setValue('Hello {name}, about {topic!r} and {name} {{literal}}')
    expect(variables(w)).toEqual(['name', 'topic'])
    // while following the template there is no mismatch
    expect(w.find('[data-testid="prompt-mismatch"]').exists()).toBe(false)
    await w.find('[data-testid="field-name"]').setValue('Greeting')
    await w.find('[data-testid="save-button"]').trigger('click')
    await flushPromises()
    expect(save.mock.calls[0]?.[0]).toEqual({
      name: 'Greeting',
      template: 'Hello {name}, about {topic!r} and {name} {{literal}}',
      input_variables: ['name', 'topic']
    })
  })

  it('warns when the declared variables differ from the template, and fixes it on request', async () => {
    const prompt: Prompt = { id: 'p1', name: 'Old', template: 'Hi {who}', input_variables: ['who', 'extra'] }
    const save = vi.fn<(input: unknown) => Promise<unknown>>(async () => ({ status: 'done' }))
    const w = mountForm(save, prompt)
    const warning = w.find('[data-testid="prompt-mismatch"]')
    expect(warning.exists()).toBe(true)
    expect(warning.text()).toContain('extra')
    await w.find('[data-testid="field-template"]').setValue('Hi {who} from {place}')
    expect(variables(w)).toEqual(['who', 'place'])
    const text = w.find('[data-testid="prompt-mismatch"]').text()
    expect(text).toContain('place')
    expect(text).toContain('extra')
    await w.find('[data-testid="use-detected-variables"]').trigger('click')
    expect(w.find('[data-testid="prompt-mismatch"]').exists()).toBe(false)
    await w.find('[data-testid="save-button"]').trigger('click')
    await flushPromises()
    expect(save.mock.calls[0]?.[0]).toEqual({
      template: 'Hi {who} from {place}',
      input_variables: ['who', 'place']
    })
  })

  it('shows placeholder syntax errors and does not save them', async () => {
    const save = vi.fn<(input: unknown) => Promise<unknown>>(async () => ({ status: 'done' }))
    const w = mountForm(save)
    await w.find('[data-testid="field-name"]').setValue('Broken')
    await w.find('[data-testid="field-template"]').setValue('Oops {unclosed')
    expect(w.find('[data-testid="prompt-syntax-errors"]').text()).toContain('Unclosed')
    await w.find('[data-testid="save-button"]').trigger('click')
    await w.find('[data-testid="prompt-form"]').trigger('submit')
    await flushPromises()
    expect(save).not.toHaveBeenCalled()
  })
})
