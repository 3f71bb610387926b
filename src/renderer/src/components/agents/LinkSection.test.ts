// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import { createMemoryHistory, createRouter } from 'vue-router'
import { defineComponent, h } from 'vue'
import type { LinkItem } from '../../stores/links'
import LinkSection from './LinkSection.vue'

const router = createRouter({
  history: createMemoryHistory(),
  routes: [{ path: '/:p(.*)*', component: defineComponent({ render: () => h('div') }) }]
})

const item = (over: Partial<LinkItem>): LinkItem => ({
  key: 'k',
  id: 'l1',
  kind: 'document',
  agentId: 'a1',
  targetId: 'd1',
  name: null,
  pending: false,
  queued: false,
  createdAt: null,
  ...over
})

function mountSection(props: Partial<InstanceType<typeof LinkSection>['$props']> = {}) {
  return mount(LinkSection, {
    props: {
      kind: 'document',
      title: 'Linked documents',
      items: [item({}), item({ key: 'k2', id: null, targetId: 'd2', pending: true })],
      candidates: [
        { id: 'd1', name: 'FAQ' },
        { id: 'd2', name: 'Pricing' },
        { id: 'd3', name: 'Handbook' }
      ],
      loading: false,
      loaded: true,
      localOnly: false,
      canUnlink: true,
      to: (l: LinkItem) => (l.id ? `/agent-documents/${l.id}` : null),
      ...props
    },
    global: { plugins: [router] }
  })
}

describe('LinkSection', () => {
  it('names links from the candidates, opens made links, marks pending ones, offers unlink on made ones', () => {
    const w = mountSection()
    const rows = w.findAll('[data-testid=linked-document]')
    expect(rows.map((r) => r.text())).toEqual([
      expect.stringContaining('FAQ'),
      expect.stringContaining('Pricing')
    ])
    expect(rows[0]!.find('[data-testid=linked-document-open]').exists()).toBe(true)
    expect(rows[1]!.find('[data-testid=linked-document-open]').exists()).toBe(false)
    expect(rows[1]!.find('[data-testid=link-pending]').exists()).toBe(true)
    expect(w.findAll('[data-testid=unlink-button]')).toHaveLength(1)
  })

  it('emits unlink with the link, and hides unlink where the server does not offer it', async () => {
    const w = mountSection()
    await w.get('[data-testid=unlink-button]').trigger('click')
    expect(w.emitted('unlink')?.[0]?.[0]).toMatchObject({ id: 'l1', targetId: 'd1' })
    await w.setProps({ canUnlink: false })
    expect(w.find('[data-testid=unlink-button]').exists()).toBe(false)
  })

  it('offers only what is not linked yet, and says None for an empty list', async () => {
    const w = mountSection()
    const select = w.getComponent({ name: 'Select' })
    expect((select.props('options') as { value: string }[]).map((o) => o.value)).toEqual(['d3'])
    await w.setProps({ items: [] })
    expect(w.text()).toContain('None')
  })

  it('links the chosen one with its name, then clears the choice', async () => {
    const w = mountSection({ kind: 'tool', candidates: [{ id: 't1', name: 'Calculator' }], items: [] })
    const button = w.get('[data-testid=link-tool-button]')
    expect(button.attributes('disabled')).toBeDefined()
    w.getComponent({ name: 'Select' }).vm.$emit('update:value', 't1')
    await w.vm.$nextTick()
    await button.trigger('click')
    expect(w.emitted('link')?.[0]).toEqual(['tool', { id: 't1', name: 'Calculator' }])
    expect(w.get('[data-testid=link-tool-button]').attributes('disabled')).toBeDefined()
  })
})
