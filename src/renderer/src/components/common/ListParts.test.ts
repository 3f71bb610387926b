// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createMemoryHistory, createRouter } from 'vue-router'
import { defineComponent, h } from 'vue'
import DetailPlaceholder from './DetailPlaceholder.vue'
import ListRow from './ListRow.vue'
import KeyboardList from './KeyboardList.vue'
import VirtualRows from './VirtualRows.vue'
import { activeList } from '../../composables/useListKeys'

function testRouter() {
  const empty = defineComponent({ render: () => h('div') })
  return createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', component: empty },
      { path: '/documents/:id?', component: empty }
    ]
  })
}

const base = {
  notFound: 'Document not found',
  back: '/documents',
  hint: 'Select a document, or create one'
}

describe('DetailPlaceholder', () => {
  it('shows a spinner while the selected item loads', async () => {
    const router = testRouter()
    const w = mount(DetailPlaceholder, {
      props: { ...base, selectedId: 'd1', loading: true, error: null },
      global: { plugins: [router] }
    })
    expect(w.find('.n-spin-body, .n-spin').exists()).toBe(true)
    expect(w.text()).not.toContain('Document not found')
  })

  it('says why an item could not be opened and leads back to the list', async () => {
    const router = testRouter()
    await router.push('/documents/d1')
    const w = mount(DetailPlaceholder, {
      props: { ...base, selectedId: 'd1', loading: false, error: 'The server is not reachable' },
      global: { plugins: [router] }
    })
    expect(w.text()).toContain('The server is not reachable')
    await w.get('button').trigger('click')
    await new Promise((r) => setTimeout(r, 0))
    expect(router.currentRoute.value.fullPath).toBe('/documents')

    await w.setProps({ error: null })
    expect(w.text()).toContain('Document not found')
  })

  it('shows the hint, with a create button only when it has a label', async () => {
    const router = testRouter()
    const w = mount(DetailPlaceholder, {
      props: { ...base, selectedId: null, loading: false, error: null, createLabel: 'New document' },
      global: { plugins: [router] }
    })
    expect(w.text()).toContain('Select a document, or create one')
    await w.get('button').trigger('click')
    expect(w.emitted('create')).toHaveLength(1)
    await w.setProps({ createLabel: null })
    expect(w.find('button').exists()).toBe(false)
  })
})

describe('ListRow', () => {
  it('opens on click and on Enter, marks the active row, passes attributes to the row', async () => {
    const w = mount(ListRow, {
      props: { active: false },
      attrs: { 'data-testid': 'document-row', draggable: 'true' },
      slots: { default: '<span class="list-row__name">Q3 report</span>' }
    })
    const row = w.get('[data-testid=document-row]')
    expect(row.attributes('draggable')).toBe('true')
    expect(row.attributes('role')).toBe('option')
    expect(row.attributes('aria-selected')).toBe('false')
    expect(row.attributes('aria-current')).toBeUndefined()
    await row.trigger('click')
    await row.trigger('keydown', { key: 'Enter' })
    expect(w.emitted('open')).toHaveLength(2)
    await w.setProps({ active: true })
    expect(row.classes()).toContain('list-row--active')
    expect(row.attributes('aria-current')).toBe('true')
    expect(row.attributes('aria-selected')).toBe('true')
    expect(row.text()).toBe('Q3 report')
  })
})

describe('KeyboardList', () => {
  it('gives the virtual list the same array when only the selection changes (its rows are not made again)', async () => {
    const items = Array.from({ length: 50 }, (_, i) => {
      const item = { id: `a${i}`, name: `Agent ${i}` }
      return { id: item.id, item }
    })
    const w = mount(KeyboardList, {
      props: { items, itemSize: 44, label: 'Agents', testid: 'agent-list', selectedId: null },
      slots: { default: '<div class="row">{{ params.item.name }}</div>' }
    })
    const given = () => (w.findComponent(VirtualRows).props() as { items: unknown }).items
    const before = given()
    expect(before).toBe(items)
    await w.setProps({ selectedId: 'a3' })
    expect(w.attributes('aria-activedescendant')).toBeTruthy()
    expect(given()).toBe(before)
    const fewer = items.slice(0, 10)
    await w.setProps({ items: fewer })
    expect(given()).toBe(fewer)
  })

  it('opens the item of a row, not the row (the rows are those of useListQuery)', async () => {
    const items = [{ id: 'a1', item: { id: 'a1', name: 'Scout' } }]
    const w = mount(KeyboardList, {
      props: { items, itemSize: 44, label: 'Agents', testid: 'agent-list', selectedId: null },
      slots: { default: '<div class="row">{{ params.item.name }}</div>' },
      attachTo: document.body
    })
    await flushPromises()
    activeList.value?.move(1)
    expect(w.emitted('open')).toEqual([[items[0]!.item]])
    w.unmount()
  })

  it('brings the row ↓ opens into view: the one at the next place', async () => {
    const items = Array.from({ length: 200 }, (_, i) => ({
      id: `a${i}`,
      item: { id: `a${i}`, name: `Agent ${i}` }
    }))
    const w = mount(KeyboardList, {
      props: { items, itemSize: 44, label: 'Agents', testid: 'agent-list', selectedId: 'a150' },
      slots: { default: '<div class="row">{{ params.item.name }}</div>' },
      attachTo: document.body
    })
    await flushPromises()
    const box = w.find('.virtual-rows').element as HTMLElement
    // happy-dom lays nothing out: the view is given its height.
    Object.defineProperty(box, 'clientHeight', { configurable: true, value: 10 * 44 })
    activeList.value?.move(1)
    expect(w.emitted('open')).toEqual([[items[151]!.item]])
    // Row 151 at the bottom of the view.
    expect(box.scrollTop).toBe(152 * 44 - 10 * 44)
    w.unmount()
  })
})
