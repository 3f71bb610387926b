// @vitest-environment happy-dom
/**
 * The list filters with naive-ui's real select (loaded as after a start): opening the type menu
 * tells the page, which only then looks for every type its items have (useListQuery's listTypes).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import ListFilters from './ListFilters.vue'
import { needNow } from '../../composables/afterStart'
import { waitFor } from '../../../../../test/support/mainCore'

const wrappers: VueWrapper[] = []
afterEach(() => {
  while (wrappers.length) wrappers.pop()?.unmount()
})

describe('ListFilters', () => {
  it('says when the type menu opens, not before, and not for the sort menu', async () => {
    needNow()
    const w = mount(ListFilters, {
      props: { typeOptions: [{ label: 'PDF', value: 'PDF' }], type: null, sort: 'name-asc' },
      attachTo: document.body
    })
    wrappers.push(w)
    const typeSelect = () => w.find('[data-testid=filter-type] .n-base-selection')
    await waitFor(() => typeSelect().exists())
    expect(w.emitted('open-types')).toBeUndefined()
    await w.find('[data-testid=sort] .n-base-selection').trigger('click')
    await flushPromises()
    expect(w.emitted('open-types')).toBeUndefined()
    await typeSelect().trigger('click')
    await flushPromises()
    expect(w.emitted('open-types')).toHaveLength(1)
  })
})
