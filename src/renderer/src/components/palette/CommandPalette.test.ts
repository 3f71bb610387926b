// @vitest-environment happy-dom
/**
 * The command palette over the real app core (Local workspace): while the saved names are on
 * their way it says so, not "nothing matches", for what the user typed already; then it ranks
 * them, and says "nothing matches" only for what matches nothing.
 */
import { describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createPinia, setActivePinia } from 'pinia'
import { defineComponent, h } from 'vue'
import { deskApiOver, testCore } from '../../../../../test/support/mainCore'
import { cleanedAfterEach } from '../../../../../test/support/componentCores'
import CommandPalette from './CommandPalette.vue'

const { cores, wrappers } = cleanedAfterEach()

describe('CommandPalette', () => {
  it('says it reads the saved items until they come, then ranks them', async () => {
    const t = testCore()
    cores.push(t)
    await t.call('session.startLocal')
    await t.call('agents.create', { name: 'Support bot', type: 'REACT', llm: { provider: 'p', model: 'm' } })
    // The real core answers; the test only holds its answer until it has looked.
    const api = deskApiOver(t)
    let answer = () => {}
    const held = new Promise<void>((resolve) => (answer = resolve))
    window.agentDesk = {
      ...api,
      palette: {
        items: async () => {
          await held
          return api.palette.items()
        }
      }
    }
    const empty = defineComponent({ render: () => h('div') })
    const router = createRouter({
      history: createMemoryHistory(),
      routes: [{ path: '/:p(.*)*', component: empty }]
    })
    setActivePinia(createPinia())
    const w = mount(CommandPalette, { global: { plugins: [router] }, attachTo: document.body })
    wrappers.push(w)
    const input = w.find('[data-testid="palette-input"]')
    const shown = (id: string) => w.find(`[data-testid="${id}"]`).exists()

    await input.setValue('supbot')
    await flushPromises()
    expect(shown('palette-loading')).toBe(true)
    expect(shown('palette-empty')).toBe(false)

    answer()
    const end = Date.now() + 10_000
    while (!shown('palette-result') && Date.now() < end) {
      await flushPromises()
      await new Promise((r) => setTimeout(r, 10))
    }
    expect(w.find('[data-testid="palette-result"]').text()).toContain('Support bot')
    expect(shown('palette-loading')).toBe(false)

    await input.setValue('zzqqxx')
    expect(shown('palette-empty')).toBe(true)
    expect(shown('palette-loading')).toBe(false)
  })
})
