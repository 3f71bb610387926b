/**
 * Keyboard use of a list page: ↑/↓ move the selection (the selected item opens in the detail
 * pane, as in a mail client), Enter moves focus into the detail pane, Esc closes it. The page that
 * is on screen registers its handler here; the app's shortcut handler (useShortcuts) calls it.
 * Screen readers follow the selection through `aria-activedescendant` on the list (rows have
 * `rowDomId(id)` as their id and role option).
 */
import { computed, onBeforeUnmount, onMounted, shallowRef } from 'vue'

export interface ListKeys {
  move(delta: number): void
  openActive(): void
  close(): void
}

/** The list page on screen (null when none: settings, outbox). */
export const activeList = shallowRef<ListKeys | null>(null)

/** The DOM id of a row (ids may hold any character; these are unique and valid). */
export const rowDomId = (id: string): string => `row-${encodeURIComponent(id)}`

export interface ListKeysOptions<T extends { id: string }> {
  items: () => readonly T[]
  selectedId: () => string | null
  open: (item: T) => void
  close: () => void
  /** Brings the row at this index of `items` into view (a virtual list renders only what is visible). */
  scrollTo?: (index: number) => void
}

export function useListKeys<T extends { id: string }>(o: ListKeysOptions<T>) {
  const handler: ListKeys = {
    move(delta) {
      const list = o.items()
      if (!list.length) return
      const at = list.findIndex((x) => x.id === o.selectedId())
      const to =
        at < 0 ? (delta > 0 ? 0 : list.length - 1) : Math.min(list.length - 1, Math.max(0, at + delta))
      const next = list[to]
      if (!next || next.id === o.selectedId()) return
      o.scrollTo?.(to)
      o.open(next)
    },
    openActive() {
      const pane = document.querySelector<HTMLElement>('[data-detail-pane]')
      const target = pane?.querySelector<HTMLElement>('input, textarea, button, [tabindex="0"]') ?? pane
      target?.focus()
    },
    close() {
      o.close()
    }
  }
  onMounted(() => {
    activeList.value = handler
  })
  onBeforeUnmount(() => {
    if (activeList.value === handler) activeList.value = null
  })
  /** For the list element: `aria-activedescendant`. */
  const activeDescendant = computed(() => {
    const id = o.selectedId()
    return id ? rowDomId(id) : undefined
  })
  return { activeDescendant }
}
