// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import { NCard } from 'naive-ui'
import { defineComponent, h, nextTick } from 'vue'
import { installA11yFixes } from './a11yFixes'

let stop: (() => void) | null = null
afterEach(() => {
  stop?.()
  document.body.innerHTML = ''
})

describe('naive-ui card headings', () => {
  it('get a level, and the outer wrapper stops claiming to be a heading, also for cards added later', async () => {
    const card = () => h(NCard, { title: 'Updates' }, () => 'body')
    mount(defineComponent({ render: card }), { attachTo: document.body })
    stop = installA11yFixes()
    const later = mount(defineComponent({ render: () => h('div', [card()]) }), { attachTo: document.body })
    await nextTick()
    await new Promise((r) => setTimeout(r, 0))
    const headers = [...document.querySelectorAll('.n-card-header')]
    expect(headers).toHaveLength(2)
    for (const header of headers) {
      expect(header.getAttribute('role')).toBe('group')
      const main = header.querySelector('.n-card-header__main')
      expect(main?.getAttribute('role')).toBe('heading')
      expect(main?.getAttribute('aria-level')).toBe('3')
      expect(main?.textContent).toBe('Updates')
    }
    later.unmount()
  })
})
