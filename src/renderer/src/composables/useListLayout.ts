import { computed, type Ref } from 'vue'
import type { ListState } from '../components/common/ResourceListLayout.vue'
import type { AppErrorData } from '../../../shared/errors'

/** A resource store as a list page's layout reads it. */
export interface LayoutStore extends ListState {
  items: readonly unknown[]
  error: AppErrorData | null
  load(): unknown
}

/** The words of a list page: its title, the filter's placeholder, "none yet" and "no match". */
export interface ListWords {
  title: string
  filter: string
  none: string
  noMatch: string
}

/**
 * The props a `<resource-list-layout>` takes from a store and its visible (filtered) rows, for
 * `v-bind`: title, empty state and its words (in the app's language: `wordsNow` is read in the computed), the count, load state, error, and Retry.
 */
export function useListLayout(
  store: LayoutStore,
  visible: Ref<readonly unknown[]>,
  wordsNow: () => ListWords
) {
  return computed(() => {
    const words = wordsNow()
    return {
      title: words.title,
      filterPlaceholder: words.filter,
      onRetry: () => void store.load(),
      empty: store.loaded && visible.value.length === 0,
      emptyText: store.items.length ? words.noMatch : words.none,
      state: store,
      error: store.error,
      count: store.loaded ? visible.value.length : null
    }
  })
}
