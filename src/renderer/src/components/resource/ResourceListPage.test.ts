// @vitest-environment happy-dom
/**
 * The generic list page rendering a descriptor (documents, prompts), over the real app core
 * (Local workspace) and the real preload API: rows as the descriptor says, search, open, the
 * detail pane, the create form, open by id.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createPinia, setActivePinia } from 'pinia'
import { defineComponent, h } from 'vue'
import FeedbackHost from '../../layouts/FeedbackHost.vue'
import { deskApiOver, testCore, type TestCore } from '../../../../../test/support/mainCore'
import { documents } from '../../resources/documents'
import { prompts } from '../../resources/prompts'
import ResourceListPage from './ResourceListPage.vue'
import { startService } from '../../../../service'
import { startGateProxy, type GateProxy } from '../../../../../test/servers/gateProxy'
import { tempDir } from '../../../../../test/support/mainCore'
import { useDocumentsStore } from '../../stores/documents'

const cores: TestCore[] = []
const wrappers: VueWrapper[] = []
afterEach(async () => {
  while (wrappers.length) wrappers.pop()?.unmount()
  while (cores.length) await cores.pop()?.core.dispose()
})

async function start(): Promise<TestCore> {
  const t = testCore()
  cores.push(t)
  await t.call('session.startLocal')
  window.agentDesk = deskApiOver(t)
  return t
}

/** Waits (no fixed sleep) until `check` holds, flushing promises between tries. */
async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 15_000
  while (!check() && Date.now() < end) {
    await flushPromises()
    await new Promise((r) => setTimeout(r, 10))
  }
  if (!check()) throw new Error(`Timed out waiting for ${what}: ${document.body.textContent?.slice(0, 1500)}`)
}

async function mountPage(resource: typeof documents | typeof prompts, path: string) {
  const empty = defineComponent({ render: () => h('div') })
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/documents/:id?', component: empty },
      { path: '/prompts/:id?', component: empty }
    ]
  })
  await router.push(path)
  setActivePinia(createPinia())
  // Beside the feedback host the app has (detail panes confirm deletes in a dialog).
  const Page = defineComponent({
    render: () => h('div', [h(FeedbackHost), h(ResourceListPage, { resource: resource as never })])
  })
  const w = mount(Page, {
    // happy-dom lays nothing out: the list (VirtualRows) shows a window's height of rows.
    global: { plugins: [router] },
    attachTo: document.body
  })
  wrappers.push(w)
  return { w, router }
}

describe('ResourceListPage', () => {
  it('renders the rows a descriptor describes, searches them and opens one in the detail pane', async () => {
    const t = await start()
    const a = await t.call('documents.create', {
      name: 'Handbook',
      type: 'PDF',
      url: 'https://example.com/h.pdf'
    })
    await t.call('documents.create', { name: 'Price list', type: 'CSV', url: 'https://example.com/p.csv' })
    const { w, router } = await mountPage(documents, '/documents')

    await until(() => w.findAll('[data-testid="document-row"]').length === 2, 'two rows')
    expect(w.find('[data-testid="list-count"]').text()).toBe('2')
    const row = w.find(`[data-document-id="${a.data.id}"]`)
    expect(row.text()).toContain('Handbook')
    expect(row.text()).toContain('PDF')
    expect(row.attributes('draggable')).toBe('true')
    expect(row.attributes('title')).toBe('https://example.com/h.pdf')

    await w.find('[data-testid="list-filter"]').setValue('price')
    await until(() => w.findAll('[data-testid="document-row"]').length === 1, 'the search')
    expect(w.find('[data-testid="document-row"]').text()).toContain('Price list')
    await w.find('[data-testid="list-filter"]').setValue('nothing like it')
    await until(() => w.find('[data-testid="list-empty"]').exists(), 'the empty text')
    expect(w.find('[data-testid="list-empty"]').text()).toContain('No documents match the filter')

    await w.find('[data-testid="list-filter"]').setValue('')
    await until(() => w.findAll('[data-testid="document-row"]').length === 2, 'all rows again')
    await w.find(`[data-document-id="${a.data.id}"]`).trigger('click')
    await until(() => router.currentRoute.value.fullPath === `/documents/${a.data.id}`, 'the route')
    await until(() => w.find('[data-testid="document-detail"]').exists(), 'the detail pane')
    expect(w.find('[data-testid="document-detail"] [data-testid="detail-name"]').text()).toBe('Handbook')
  })

  it('opens the create form of the descriptor from the New button', async () => {
    await start()
    const { w } = await mountPage(documents, '/documents')
    await until(() => w.find('[data-testid="list-empty"]').exists(), 'the empty list')
    expect(w.find('[data-testid="list-empty"]').text()).toContain('No documents yet — create one')
    await w.find('[data-testid="new-button"]').trigger('click')
    await until(() => w.find('[data-testid="document-form"]').exists(), 'the create form')
    expect(w.find('.detail-pane__title').text()).toBe('New document')
  })

  it('opens an item by id where the descriptor has one (prompts), and says when the id is unknown', async () => {
    const t = await start()
    const p = await t.call('prompts.create', { name: 'Greet', template: 'Hello {name}' })
    const { w, router } = await mountPage(prompts, '/prompts')
    await until(() => w.find('[data-testid="prompt-open-id"]').exists(), 'the open-by-id input')

    await w.find('[data-testid="prompt-open-id"]').setValue(`  ${p.data.id} `)
    await w.find('[data-testid="prompt-open-button"]').trigger('click')
    await until(() => router.currentRoute.value.fullPath === `/prompts/${p.data.id}`, 'the route')
    await until(() => w.find('[data-testid="prompt-detail"]').exists(), 'the prompt')
    expect(w.find('[data-testid="prompt-detail"] [data-testid="detail-name"]').text()).toBe('Greet')
    // Its row, once the list (read apart from the item) is painted.
    const row = `[data-prompt-id="${p.data.id}"][data-testid="prompt-row"]`
    await until(() => w.find(row).exists(), 'the prompt row')
    expect(w.find(row).text()).toContain('1 vars')

    await router.push('/prompts/no-such-prompt')
    await until(() => w.text().includes('No prompt has the id “no-such-prompt”'), 'the not-found text')
  })

  it('a refresh that fails with rows on screen keeps them and says so, with Retry', async () => {
    const svc = await startService({
      dataDir: tempDir('agent-desk-svc-'),
      port: 0,
      scryptCost: 16,
      logger: () => {}
    })
    const gate: GateProxy = await startGateProxy(svc.url)
    const t = testCore()
    cores.push(t)
    try {
      const profile = await t.call('profiles.save', { name: 'Gate', baseUrl: gate.url })
      await t.call('session.signUp', {
        profileId: profile.id,
        email: 'r@b.co',
        password: 'password-1',
        name: 'R'
      })
      window.agentDesk = deskApiOver(t)
      await t.call('documents.create', { name: 'Handbook', type: 'PDF', url: 'https://example.com/h.pdf' })
      const { w } = await mountPage(documents, '/documents')
      await until(() => w.findAll('[data-testid="document-row"]').length === 1, 'the row')
      expect(w.find('[data-testid="list-refresh-error"]').exists()).toBe(false)

      gate.before = (r) =>
        r.method === 'GET' && r.path.endsWith('/documents')
          ? {
              status: 500,
              json: { success: false, error: { code: 'boom', message: 'The database is busy' } }
            }
          : 'forward'
      await useDocumentsStore().load()
      await until(() => w.find('[data-testid="list-refresh-error"]').exists(), 'the refresh error')
      expect(w.find('[data-testid="list-refresh-error"]').text()).toContain('Could not refresh')
      expect(w.findAll('[data-testid="document-row"]')).toHaveLength(1)

      gate.before = undefined
      await w.find('[data-testid="list-refresh-retry"]').trigger('click')
      await until(() => !w.find('[data-testid="list-refresh-error"]').exists(), 'the bar gone after Retry')
      expect(w.findAll('[data-testid="document-row"]')).toHaveLength(1)
    } finally {
      await gate.close()
      await svc.close()
    }
  })
})
