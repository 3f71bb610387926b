/**
 * "Open the create form of this page" asked from outside the page (the application menu's
 * File › New …). A page registers with onCreateRequest in its setup; a request made before the
 * page has mounted (the menu navigates there first) is taken when it does.
 */
import { shallowRef, watch } from 'vue'

const pending = shallowRef<{ path: string; seq: number } | null>(null)
let seq = 0

/** Asks the page at `path` (e.g. '/agents') to open its create form. */
export function requestCreate(path: string): void {
  pending.value = { path, seq: ++seq }
}

/** In a page's setup: `start` runs for every create request for `path`, including one pending now. */
export function onCreateRequest(path: string, start: () => void): void {
  watch(
    pending,
    (r) => {
      if (!r || r.path !== path) return
      pending.value = null
      start()
    },
    { immediate: true }
  )
}
