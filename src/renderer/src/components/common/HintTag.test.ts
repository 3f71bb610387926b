// @vitest-environment happy-dom
/** The header's warning tags: the label at once, the explanation in a tooltip on hover. */
import { describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import HintTag from './HintTag.vue'

describe('HintTag', () => {
  it('shows its label under its test id, and its hint on hover', async () => {
    const w = mount(HintTag, {
      props: {
        label: 'Not answering',
        hint: 'The server has not answered for a while',
        testid: 'slow-badge'
      },
      attachTo: document.body
    })
    const tag = w.find('[data-testid="slow-badge"]')
    expect(tag.text()).toBe('Not answering')
    expect(document.body.textContent).not.toContain('has not answered')
    await tag.trigger('mouseenter')
    await new Promise((r) => setTimeout(r, 250))
    await flushPromises()
    expect(document.body.textContent).toContain('The server has not answered for a while')
    w.unmount()
  })
})
