/**
 * A media query as a reactive boolean (kept current while the component lives). `useNarrow()`:
 * the window is too narrow for side-by-side extra panes (the agents view's link palette becomes a
 * drawer); the CSS of the layouts uses the same breakpoint.
 */
import { onScopeDispose, ref, type Ref } from 'vue'

/** Below this width (CSS px) extra side panes become drawers. Keep in step with the CSS. */
export const NARROW_MAX_WIDTH = 1199

export function useMedia(query: string): Ref<boolean> {
  const m = typeof matchMedia === 'function' ? matchMedia(query) : null
  const matches = ref(m?.matches ?? false)
  if (m) {
    const on = (e: MediaQueryListEvent) => (matches.value = e.matches)
    m.addEventListener('change', on)
    onScopeDispose(() => m.removeEventListener('change', on))
  }
  return matches
}

export const useNarrow = (): Ref<boolean> => useMedia(`(max-width: ${NARROW_MAX_WIDTH}px)`)
