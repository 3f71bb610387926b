// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import SecretValue from './SecretValue.vue'

describe('SecretValue', () => {
  it('shows the fields masked, reveals on a click, hides again by itself and for another value', async () => {
    const w = mount(SecretValue, {
      props: { value: { type: 'bearer', token: 's3cr3t' }, testid: 'auth', revealMs: 30 }
    })
    const text = () => w.get('[data-testid="auth"]').text()
    expect(text()).toBe('{ "type": "••••••••", "token": "••••••••" }')
    expect(w.html()).not.toContain('s3cr3t')
    await w.get('[data-testid="auth-reveal"]').trigger('click')
    expect(text()).toContain('"token": "s3cr3t"')
    await new Promise((r) => setTimeout(r, 60))
    expect(text()).not.toContain('s3cr3t')
    await w.get('[data-testid="auth-reveal"]').trigger('click')
    await w.setProps({ value: { key: 'other' } })
    expect(text()).toBe('{ "key": "••••••••" }')
    await w.setProps({ value: null })
    expect(w.text()).toBe('—')
  })
})
