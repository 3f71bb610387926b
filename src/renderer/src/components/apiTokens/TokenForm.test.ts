// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import TokenForm from './TokenForm.vue'
import type { ApiToken } from '../../../../shared/apiToken'
import type { Write } from '../../../../shared/ipc'

const wrappers: VueWrapper[] = []
beforeEach(() => localStorage.clear())
afterEach(() => {
  while (wrappers.length) wrappers.pop()?.unmount()
})

describe('TokenForm', () => {
  it('requires a description, then shows the new value once and copies it', async () => {
    const save = vi.fn<(input: { description: string }) => Promise<Write<ApiToken>>>(async (input) => ({
      status: 'done',
      data: { id: 'k1', description: input.description, token: 'secret-value-1234567890' }
    }))
    const w = mount(TokenForm, { props: { save }, attachTo: document.body })
    wrappers.push(w)
    await w.find('[data-testid="save-button"]').trigger('click')
    await flushPromises()
    expect(save).not.toHaveBeenCalled()
    expect(w.text()).toContain('Describe what the token is for')

    await w.find('[data-testid="field-description"]').setValue('CI pipeline')
    await w.find('[data-testid="save-button"]').trigger('click')
    await flushPromises()
    expect(save).toHaveBeenCalledWith({ description: 'CI pipeline' })
    expect(w.find('[data-testid="token-value"]').text()).toBe('secret-value-1234567890')

    await w.find('[data-testid="token-copy"]').trigger('click')
    await flushPromises()
    expect(await navigator.clipboard.readText()).toBe('secret-value-1234567890')

    await w.find('[data-testid="token-done"]').trigger('click')
    expect(w.emitted('done')?.[0]).toEqual(['k1'])
    expect(w.find('[data-testid="token-value"]').exists()).toBe(false)
    // nothing about the token was written to the draft storage
    expect(JSON.stringify({ ...localStorage })).not.toContain('secret-value')
  })
})
