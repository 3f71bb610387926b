// @vitest-environment happy-dom
/**
 * The generic detail pane with a resource's pane descriptor (tools), over the real app core
 * (Local workspace): header, dates, body slot, and delete (confirmed, back to the list) or, where
 * the server does not offer it, a disabled button.
 */
import { describe, expect, it } from 'vitest'
import { flushPending, removalPending } from '../../composables/useUndoable'
import { flushPromises, mount } from '@vue/test-utils'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createPinia, setActivePinia } from 'pinia'
import { defineComponent, h } from 'vue'
import FeedbackHost from '../../layouts/FeedbackHost.vue'
import type { Tool } from '../../../../shared/tool'
import { deskApiOver, testCore } from '../../../../../test/support/mainCore'
import { cleanedAfterEach } from '../../../../../test/support/componentCores'
import { toolPane } from '../../resources/tools'
import { useToolsStore } from '../../stores/tools'
import { useCapabilitiesStore } from '../../stores/capabilities'
import ResourceDetail from './ResourceDetail.vue'

const { cores, wrappers } = cleanedAfterEach()

async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 15_000
  while (!check() && Date.now() < end) {
    await flushPromises()
    await new Promise((r) => setTimeout(r, 10))
  }
  if (!check()) throw new Error(`Timed out waiting for ${what}`)
}

async function setup(undoMs = 60_000) {
  const t = testCore()
  cores.push(t)
  await t.call('session.startLocal')
  window.agentDesk = deskApiOver(t)
  const made = await t.call('tools.create', { name: 'Search', type: 'SEARCH', description: 'Looks up' })
  setActivePinia(createPinia())
  const store = useToolsStore()
  await store.load()
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [{ path: '/tools/:id?', component: defineComponent({ render: () => h('div') }) }]
  })
  await router.push(`/tools/${made.data.id}`)
  const tool = store.find(made.data.id) as Tool
  const Pane = defineComponent({
    render: () =>
      h('div', [
        h(FeedbackHost),
        h(
          ResourceDetail,
          {
            pane: toolPane,
            item: tool,
            title: tool.name ?? '',
            badge: tool.type,
            remove: store.remove,
            undoMs
          },
          () => h('p', { 'data-testid': 'body' }, 'the form')
        )
      ])
  })
  const w = mount(Pane, { global: { plugins: [router] }, attachTo: document.body })
  wrappers.push(w)
  return { t, w, router, store, tool }
}

describe('ResourceDetail', () => {
  it('shows the title, type, dates and id, the body, and deletes after confirming', async () => {
    const { t, w, router, store, tool } = await setup()
    const pane = w.find('[data-testid="tool-detail"]')
    expect(pane.attributes('data-tool-id')).toBe(tool.id)
    expect(pane.find('[data-testid="detail-name"]').text()).toBe('Search')
    expect(pane.text()).toContain('SEARCH')
    expect(pane.text()).toContain('Created')
    expect(pane.text()).toContain(tool.id)
    expect(pane.find('[data-testid="body"]').text()).toBe('the form')

    await pane.find('[data-testid="delete-button"]').trigger('click')
    await until(() => !!document.querySelector('[data-testid="confirm-delete"]'), 'the confirmation')
    expect(document.body.textContent).toContain('Agents that use it lose the link.')
    ;(document.querySelector('[data-testid="confirm-delete"]') as HTMLElement).click()
    await until(() => router.currentRoute.value.fullPath === '/tools', 'the way back to the list')
    // Hidden at once; sent when the Undo window ends, or at once when the window closes (flush).
    expect(removalPending('tools', tool.id)).toBe(true)
    expect(store.find(tool.id)).toBeDefined()
    flushPending()
    await until(() => store.find(tool.id) === undefined, 'the delete')
    await until(() => !removalPending('tools', tool.id), 'the end of the Undo window')
    const left = await t.call('tools.list')
    expect(left.data.map((x) => x.id)).not.toContain(tool.id)
  })

  it('Undo in the toast keeps the item: nothing is sent', async () => {
    const { t, w, tool } = await setup()
    await w.find('[data-testid="delete-button"]').trigger('click')
    await until(() => !!document.querySelector('[data-testid="confirm-delete"]'), 'the confirmation')
    ;(document.querySelector('[data-testid="confirm-delete"]') as HTMLElement).click()
    await until(() => !!document.querySelector('[data-testid="undo-button"]'), 'the Undo toast')
    expect(removalPending('tools', tool.id)).toBe(true)
    ;(document.querySelector('[data-testid="undo-button"]') as HTMLElement).click()
    await until(() => !removalPending('tools', tool.id), 'the item back')
    expect((await t.call('tools.list')).data.map((x) => x.id)).toContain(tool.id)
  })

  it('disables delete where the server does not offer it', async () => {
    const { w } = await setup()
    useCapabilitiesStore().markNotOffered('tools.delete')
    await flushPromises()
    expect(w.find('[data-testid="delete-button"]').attributes('disabled')).toBeDefined()
  })
})
