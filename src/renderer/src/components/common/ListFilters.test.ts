// @vitest-environment happy-dom
/**
 * The list filters with naive-ui's real select (loaded as after a start): opening the type menu
 * tells the page, which only then looks for every type its items have (useListQuery's listTypes).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import ListFilters from './ListFilters.vue'
import { needNow } from '../../composables/afterStart'

const wrappers: VueWrapper[] = []
afterEach(() => {
  while (wrappers.length) wrappers.pop()?.unmount()
})

/** Waits (no fixed sleep) until `check` holds, flushing promises between tries. */
async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 10_000
  while (!check() && Date.now() < end) {
    await flushPromises()
    await new Promise((r) => setTimeout(r, 10))
  }
  if (!check()) throw new Error(`Timed out waiting for ${what}`)
}

describe('ListFilters', () => {
  it('says when the type menu opens, not before, and not for the sort menu', async () => {
    needNow()
    const w = mount(ListFilters, {
      props: { typeOptions: [{ label: 'PDF', value: 'PDF' }], type: null, sort: 'name-asc' },
      attachTo: document.body
    })
    wrappers.push(w)
    const typeSelect = () => w.find('[data-testid=filter-type] .n-base-selection')
    await until(() => typeSelect().exists(), 'the type select')
    expect(w.emitted('open-types')).toBeUndefined()
    await w.find('[data-testid=sort] .n-base-selection').trigger('click')
    await flushPromises()
    expect(w.emitted('open-types')).toBeUndefined()
    await typeSelect().trigger('click')
    await flushPromises()
    expect(w.emitted('open-types')).toHaveLength(1)
  })
})
