// @vitest-environment happy-dom
/**
 * The generic form rendering a descriptor's fields (those of `resources/tools.ts`) with the shared
 * zod schemas (ToolCreate / ToolUpdate) for validation.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { defineComponent, h, type PropType } from 'vue'
import { ToolCreate, type Tool } from '../../../../shared/tool'
import { useResourceForm } from '../../composables/useResourceForm'
import { toolFields, toolModel } from '../../resources/tools'
import { toolForm } from '../../resources/forms'
import ResourceForm from './ResourceForm.vue'

const wrappers: VueWrapper[] = []
afterEach(() => {
  while (wrappers.length) wrappers.pop()?.unmount()
})

type Save = (input: unknown) => Promise<unknown>

/** A form over the tool descriptor, as a resource's form component builds it. */
const Harness = defineComponent({
  props: {
    item: { type: Object as PropType<Tool | null>, default: null },
    save: { type: Function as PropType<Save>, required: true }
  },
  setup(props) {
    const form = useResourceForm({ ...toolForm, item: () => props.item, save: props.save })
    return () =>
      h(ResourceForm, { form, fields: toolFields, testid: 'tool-form', noun: 'tool', original: props.item })
  }
})

function mountForm(save: Save, item: Tool | null = null) {
  const w = mount(Harness, { props: { save, item }, attachTo: document.body })
  wrappers.push(w)
  return w
}

describe('ResourceForm', () => {
  it('renders every field of the descriptor, each with its test id, label and placeholder', () => {
    const w = mountForm(async () => ({ status: 'done' }))
    for (const f of toolFields) expect(w.find(`[data-testid="field-${f.key}"]`).exists()).toBe(true)
    const labels = w.findAll('.n-form-item-label').map((l) => l.text())
    expect(labels).toEqual(toolFields.map((f) => f.label))
    expect(w.find('[data-testid="field-name"]').attributes('placeholder')).toBe('Web search')
    expect(w.find('[data-testid="save-button"]').text()).toBe('Create tool')
    expect(w.find('[data-testid="cancel-button"]').exists()).toBe(true)
  })

  it('validates with the shared schema: a refused field shows its message and nothing is sent', async () => {
    const save = vi.fn<Save>(async () => ({ status: 'done' }))
    const w = mountForm(save)
    await w.find('[data-testid="save-button"]').trigger('click')
    await flushPromises()
    expect(save).not.toHaveBeenCalled()
    const expected = ToolCreate.safeParse(toolModel(null))
    expect(expected.success).toBe(false)
    const message = expected.success ? '' : (expected.error.issues[0]?.message ?? '')
    expect(message).not.toBe('')
    expect(w.find('.n-form-item-feedback-wrapper').text()).toContain(message)

    await w.find('[data-testid="field-name"]').setValue('Web search')
    await w.find('[data-testid="save-button"]').trigger('click')
    await flushPromises()
    expect(save).toHaveBeenCalledWith({ name: 'Web search', type: 'SEARCH', description: '', metadata: {} })
  })

  it('edits: names a value the server sent outside the options, sends only the changes, reverts', async () => {
    const save = vi.fn<Save>(async () => ({ status: 'done' }))
    const tool = {
      id: 't1',
      name: 'Old',
      type: 'QUANTUM',
      description: 'd',
      metadata: { a: 1 }
    } as unknown as Tool
    const w = mountForm(save, tool)
    expect(w.text()).toContain('The server says “QUANTUM”')
    expect(w.find('[data-testid="save-button"]').text()).toBe('Save changes')
    const revert = w.find('[data-testid="revert-button"]')
    expect(revert.attributes('disabled')).toBeDefined()

    await w.find('[data-testid="field-name"]').setValue('New')
    expect(w.find('[data-testid="revert-button"]').attributes('disabled')).toBeUndefined()
    await w.find('[data-testid="revert-button"]').trigger('click')
    expect((w.find('[data-testid="field-name"]').element as HTMLInputElement).value).toBe('Old')

    await w.find('[data-testid="field-description"]').setValue('Finds things')
    await w.find('[data-testid="save-button"]').trigger('click')
    await flushPromises()
    expect(save).toHaveBeenCalledWith({ description: 'Finds things' })
  })
})
