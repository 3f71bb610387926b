// @vitest-environment happy-dom
/**
 * The profile dialog over the real app core (issue 12 item 2): plain http:// to another computer
 * is refused in words on the address field; the explicit "Insecure connection" opt-in saves it,
 * and the profile is then shown in red with those words.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { defineComponent, h } from 'vue'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { deskApiOver, testCore, waitFor, type TestCore } from '../../../../../test/support/mainCore'
import { useSignIn } from './useSignIn'
import ProfilePicker from './ProfilePicker.vue'

const cores: TestCore[] = []
const wrappers: VueWrapper[] = []
afterEach(async () => {
  while (wrappers.length) wrappers.pop()?.unmount()
  while (cores.length) await cores.pop()?.core.dispose()
})

const Host = defineComponent({
  setup() {
    const signIn = useSignIn(() => undefined)
    void signIn.session.loadProfiles()
    return () => h(ProfilePicker, { signIn })
  }
})

function byTid(id: string): HTMLElement | null {
  return document.body.querySelector(`[data-testid="${id}"]`)
}

async function type(id: string, value: string) {
  const el = byTid(id) as HTMLInputElement
  el.value = value
  el.dispatchEvent(new Event('input'))
  await flushPromises()
}

describe('ProfilePicker', () => {
  it('refuses cleartext to another computer unless "Insecure connection" is ticked, then shows it in red', async () => {
    const t = testCore()
    cores.push(t)
    window.agentDesk = deskApiOver(t)
    setActivePinia(createPinia())
    const w = mount(Host, { attachTo: document.body })
    wrappers.push(w)
    await flushPromises()

    ;(byTid('profile-add') as HTMLElement).click()
    await waitFor(() => byTid('profile-base-url') !== null)
    await type('profile-name', 'Lab')
    await type('profile-base-url', 'http://ams.example.com')
    ;(byTid('profile-save') as HTMLElement).click()
    await waitFor(() => (byTid('profile-form')?.textContent ?? '').includes('Plain http://'))
    expect((await t.call('profiles.list')).filter((p) => p.kind === 'remote')).toEqual([])

    const optIn =
      byTid('profile-insecure-optin')?.querySelector('.n-checkbox-box') ?? byTid('profile-insecure-optin')
    ;(optIn as HTMLElement).click()
    await flushPromises()
    ;(byTid('profile-save') as HTMLElement).click()
    await waitFor(() => byTid('profile-insecure') !== null)
    const saved = (await t.call('profiles.list')).filter((p) => p.kind === 'remote')
    expect(saved).toMatchObject([{ name: 'Lab', baseUrl: 'http://ams.example.com', insecure: true }])
    const warning = byTid('profile-insecure') as HTMLElement
    expect(warning.textContent).toContain('Insecure connection')
    expect(warning.classList.contains('profile-insecure')).toBe(true)
  })

  it('accepts http:// for this computer without the opt-in', async () => {
    const t = testCore()
    cores.push(t)
    for (const baseUrl of [
      'http://127.0.0.1:8080',
      'http://localhost:3000',
      'http://[::1]:9000',
      'http://127.8.9.10'
    ]) {
      const p = await t.call('profiles.save', { name: 'Here', baseUrl })
      expect(p.insecure).toBeUndefined()
    }
    const refused = await t.fail('profiles.save', { name: 'There', baseUrl: 'http://10.0.0.5:8080' })
    expect(refused.fields?.[0]).toMatchObject({
      field: 'baseUrl',
      message: expect.stringContaining('https://')
    })
    const lookalike = await t.fail('profiles.save', {
      name: 'There',
      baseUrl: 'http://127.0.0.1.evil.example'
    })
    expect(lookalike.kind).toBe('validation')
    expect(
      (await t.call('profiles.save', { name: 'TLS', baseUrl: 'https://ams.example.com' })).insecure
    ).toBeUndefined()
  })
})
