// @vitest-environment happy-dom
import { describe, expect, it, beforeEach } from 'vitest'
import { mount, flushPromises } from '@vue/test-utils'
import AgentForm from './AgentForm.vue'
import type { AgentCreate } from '../../../../shared/agent'

function input(w: ReturnType<typeof mount>, id: string) {
  const el = w.find(`[data-testid="${id}"]`)
  expect(el.exists()).toBe(true)
  return el
}

const tags = [
  { id: 't1', name: 'urgent', color: '#B60205', userId: 'u', createdAt: '', updatedAt: '' },
  { id: 't2', name: 'calm', color: '#C5DEF5', userId: 'u', createdAt: '', updatedAt: '' }
]

describe('AgentForm', () => {
  beforeEach(() => localStorage.clear())

  it('shows zod field errors and does not submit invalid input', async () => {
    const calls: AgentCreate[] = []
    const w = mount(AgentForm, {
      props: { mode: 'create', submit: async (p: AgentCreate) => void calls.push(p) },
      attachTo: document.body
    })
    await input(w, 'field-name').setValue('   ')
    await input(w, 'save-button').trigger('click')
    await flushPromises()
    expect(calls).toHaveLength(0)
    expect(w.find('[data-testid="error-name"]').text()).toBe('Enter a name')
    expect(w.find('[data-testid="error-llm-provider"]').text()).toBe('Enter a provider')
    expect(w.find('[data-testid="error-llm-model"]').text()).toBe('Enter a model')
    w.unmount()
  })

  it('submits a valid agent with tag objects', async () => {
    const calls: AgentCreate[] = []
    const w = mount(AgentForm, {
      props: {
        mode: 'create',
        tags,
        initial: {
          name: '',
          type: 'REACT',
          llm: { provider: '', model: '' },
          hasMemory: true,
          promptId: null,
          documentId: null,
          tags: ['t2']
        },
        submit: async (p: AgentCreate) => void calls.push(p)
      }
    })
    await input(w, 'field-name').setValue('  Helper ')
    await input(w, 'field-llm-provider').setValue('openai')
    await input(w, 'field-llm-model').setValue('gpt-4o')
    await input(w, 'save-button').trigger('click')
    await flushPromises()
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({
      name: 'Helper',
      type: 'REACT',
      llm: { provider: 'openai', model: 'gpt-4o' },
      hasMemory: true,
      promptId: null,
      tags: [{ id: 't2', name: 'calm', color: '#C5DEF5' }]
    })
    expect(w.emitted('saved')).toHaveLength(1)
  })

  it('keeps typed input and shows the server field message when the server refuses', async () => {
    const w = mount(AgentForm, {
      props: {
        mode: 'create',
        draftKey: 'agent-create-test',
        submit: async () => {
          throw Object.assign(new Error('The request was refused'), {
            kind: 'validation',
            message: 'The request was refused',
            fields: [{ field: 'llm.model', message: 'Unknown model for this provider' }]
          })
        }
      }
    })
    await input(w, 'field-name').setValue('Keeper')
    await input(w, 'field-llm-provider').setValue('acme')
    await input(w, 'field-llm-model').setValue('nope-1')
    await input(w, 'save-button').trigger('click')
    await flushPromises()
    expect(w.find('[data-testid="error-llm-model"]').text()).toBe('Unknown model for this provider')
    expect((input(w, 'field-name').element as HTMLInputElement).value).toBe('Keeper')
    expect((input(w, 'field-llm-model').element as HTMLInputElement).value).toBe('nope-1')
    expect(w.emitted('saved')).toBeUndefined()
    // The draft survives a restart: a new form with the same key gets the typed values back.
    w.unmount()
    const again = mount(AgentForm, {
      props: { mode: 'create', draftKey: 'agent-create-test', submit: async () => {} }
    })
    expect((input(again, 'field-name').element as HTMLInputElement).value).toBe('Keeper')
    expect((input(again, 'field-llm-provider').element as HTMLInputElement).value).toBe('acme')
    expect(again.find('[data-testid="draft-restored"]').exists()).toBe(true)
  })

  it('shows a refusal without fields as a form-level error', async () => {
    const w = mount(AgentForm, {
      props: {
        mode: 'edit',
        initial: {
          name: 'A',
          type: 'CHATVENDOR',
          llm: { provider: 'p', model: 'm' },
          hasMemory: false,
          promptId: null,
          documentId: null,
          tags: []
        },
        submit: async () => {
          throw Object.assign(new Error('x'), { kind: 'conflict', message: 'Another agent has this name' })
        }
      }
    })
    await input(w, 'save-button').trigger('click')
    await flushPromises()
    expect(w.find('[data-testid="form-error"]').text()).toContain('Another agent has this name')
    expect((input(w, 'field-name').element as HTMLInputElement).value).toBe('A')
  })
})
