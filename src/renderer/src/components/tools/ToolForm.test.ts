// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import ToolForm from './ToolForm.vue'
import type { Tool } from '../../../../shared/tool'

const wrappers: VueWrapper[] = []
afterEach(() => {
  while (wrappers.length) wrappers.pop()?.unmount()
})

const tool: Tool = {
  id: 't1',
  name: 'Search',
  type: 'SEARCH',
  description: 'Looks things up',
  metadata: { engine: 'ddg' }
}

function mountForm(save: (input: unknown) => Promise<unknown>, t: Tool | null = tool) {
  const w = mount(ToolForm, { props: { save, tool: t }, attachTo: document.body })
  wrappers.push(w)
  return w
}

describe('ToolForm', () => {
  it('refuses invalid configuration JSON and does not save', async () => {
    const save = vi.fn<(input: unknown) => Promise<unknown>>(async () => ({ status: 'done' }))
    const w = mountForm(save)
    await w.find('[data-testid="field-metadata"]').setValue('{ "engine": "ddg", ')
    expect(w.find('[data-testid="json-error"]').text()).toContain('Not valid JSON')
    const button = w.find('[data-testid="save-button"]')
    expect(button.attributes('disabled')).toBeDefined()
    await button.trigger('click')
    await w.find('[data-testid="tool-form"]').trigger('submit')
    await flushPromises()
    expect(save).not.toHaveBeenCalled()
  })

  it('sends only the changed fields, with the edited configuration object', async () => {
    const save = vi.fn<(input: unknown) => Promise<unknown>>(async () => ({ status: 'done' }))
    const w = mountForm(save)
    await w.find('[data-testid="field-metadata"]').setValue('{ "engine": "bing", "limit": 5 }')
    await w.find('[data-testid="field-description"]').setValue('Finds pages')
    expect(w.find('[data-testid="json-error"]').exists()).toBe(false)
    await w.find('[data-testid="save-button"]').trigger('click')
    await flushPromises()
    expect(save).toHaveBeenCalledTimes(1)
    expect(save.mock.calls[0]?.[0]).toEqual({
      description: 'Finds pages',
      metadata: { engine: 'bing', limit: 5 }
    })
  })

  it('refuses a JSON array as configuration', async () => {
    const save = vi.fn<(input: unknown) => Promise<unknown>>(async () => ({ status: 'done' }))
    const w = mountForm(save)
    await w.find('[data-testid="field-metadata"]').setValue('[1, 2]')
    await w.find('[data-testid="save-button"]').trigger('click')
    await flushPromises()
    expect(save).not.toHaveBeenCalled()
    expect(w.text()).toContain('Must be a JSON object')
  })

  it('creates with name, type, description and metadata; shows the server field message on refusal', async () => {
    const save = vi.fn<(input: unknown) => Promise<unknown>>(async () => {
      throw Object.assign(new Error('Refused'), {
        kind: 'validation',
        fields: [{ field: 'name', message: 'A tool with that name exists' }]
      })
    })
    const w = mountForm(save, null)
    await w.find('[data-testid="field-name"]').setValue('Calculator')
    await w.find('[data-testid="save-button"]').trigger('click')
    await flushPromises()
    expect(save.mock.calls[0]?.[0]).toEqual({
      name: 'Calculator',
      type: 'SEARCH',
      description: '',
      metadata: {}
    })
    expect(w.text()).toContain('A tool with that name exists')
    expect((w.find('[data-testid="field-name"]').element as HTMLInputElement).value).toBe('Calculator')
  })
})
