// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { mount, type VueWrapper } from '@vue/test-utils'
import { h, nextTick } from 'vue'
import VirtualRows from './VirtualRows.vue'

const SIZE = 44
const items = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `a${i}`, name: `Agent ${i}` }))
const wrappers: VueWrapper[] = []
afterEach(() => {
  while (wrappers.length) wrappers.pop()?.unmount()
})

function mountRows(list: { id: string; name: string }[]) {
  const w = mount(VirtualRows, {
    props: { items: list, itemSize: SIZE },
    slots: { default: '<span class="name">{{ params.item.name }}</span>' },
    attachTo: document.body
  })
  wrappers.push(w)
  const box = w.element as HTMLElement
  const shown = () => w.findAll('.name').map((n) => n.text())
  /** Scrolls as a user does: the position, then the browser's scroll event. */
  const scroll = async (top: number) => {
    box.scrollTop = top
    box.dispatchEvent(new Event('scroll'))
    await nextTick()
  }
  return { w, box, shown, scroll }
}

describe('VirtualRows', () => {
  it('renders the rows in view and a few either side, in a scroller as tall as every row', async () => {
    const { w, shown, scroll } = mountRows(items(10_000))
    // Before a layout (happy-dom has none): a window's height of rows, and three more.
    const inView = Math.ceil(window.innerHeight / SIZE)
    expect(shown()).toEqual(items(inView + 3).map((a) => a.name))
    expect((w.find('.virtual-rows__all').element as HTMLElement).style.height).toBe(`${10_000 * SIZE}px`)
    // Scrolled to row 5,000: it and its neighbours, placed where they are in the whole.
    await scroll(5000 * SIZE)
    expect(shown()[0]).toBe('Agent 4997')
    expect(shown()).toHaveLength(3 + inView + 3)
    expect((w.find('.virtual-rows__shown').element as HTMLElement).style.transform).toBe(
      `translateY(${4997 * SIZE}px)`
    )
    // The end: no row past the last.
    await scroll(10_000 * SIZE)
    expect(shown().at(-1)).toBe('Agent 9999')
    // Filtered to 50 while scrolled there: the end of the 50 (the browser's scroll is at their end).
    await w.setProps({ items: items(50) })
    expect(shown().at(-1)).toBe('Agent 49')
    expect(shown()).toHaveLength(3 + inView)
  })

  it('follows its items: a shorter list shows its rows, an empty one none', async () => {
    const { w, shown } = mountRows(items(500))
    await w.setProps({ items: items(500).filter((a) => a.name.endsWith('7')) })
    expect(shown().slice(0, 3)).toEqual(['Agent 7', 'Agent 17', 'Agent 27'])
    await w.setProps({ items: [] })
    expect(shown()).toEqual([])
    expect((w.find('.virtual-rows__all').element as HTMLElement).style.height).toBe('0px')
  })

  it('renders again only when the rows shown change, not at every scroll event', async () => {
    let rendered = 0
    const w = mount(VirtualRows, {
      props: { items: items(1000), itemSize: SIZE },
      slots: {
        default: ({ item }: { item: { id: string } }) => {
          rendered++
          return h('span', { class: 'name' }, item.id)
        }
      },
      attachTo: document.body
    })
    wrappers.push(w)
    const box = w.element as HTMLElement
    const scroll = async (top: number) => {
      box.scrollTop = top
      box.dispatchEvent(new Event('scroll'))
      await nextTick()
    }
    await scroll(100 * SIZE)
    const after = rendered
    // Neither edge of the view past a row's: the same rows, nothing rendered.
    await scroll(100 * SIZE + 5)
    await scroll(100 * SIZE + 10)
    expect(rendered).toBe(after)
    // A row further: rendered again, one row more at the top.
    await scroll(101 * SIZE)
    expect(rendered).toBeGreaterThan(after)
    expect(w.find('.name').text()).toBe('a98')
  })

  it('brings a row into view scrolling as little as it takes', async () => {
    const { w, box, shown } = mountRows(items(1000))
    // happy-dom lays nothing out: the view is given its height.
    Object.defineProperty(box, 'clientHeight', { configurable: true, value: 10 * SIZE })
    const scrollTo = (to: { index: number }) =>
      (w.vm as unknown as { scrollTo(to: { index: number }): void }).scrollTo(to)
    // Below the view: shown at its bottom.
    scrollTo({ index: 100 })
    await nextTick()
    expect(box.scrollTop).toBe(101 * SIZE - 10 * SIZE)
    expect(shown()).toContain('Agent 100')
    // In view: no scroll.
    scrollTo({ index: 95 })
    expect(box.scrollTop).toBe(91 * SIZE)
    // Above: shown at its top.
    scrollTo({ index: 40 })
    await nextTick()
    expect(box.scrollTop).toBe(40 * SIZE)
    expect(shown()).toContain('Agent 40')
    // An index past the list: nothing.
    scrollTo({ index: 1000 })
    expect(box.scrollTop).toBe(40 * SIZE)
  })
})
