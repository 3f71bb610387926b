/**
 * Component tests over real app cores: what a test mounts and the cores it starts, undone after
 * each test (wrappers unmounted, the page emptied, cores disposed). Push onto the arrays returned.
 */
import { afterEach } from 'vitest'
import type { VueWrapper } from '@vue/test-utils'
import type { TestCore } from './mainCore'

export function cleanedAfterEach(): { cores: TestCore[]; wrappers: VueWrapper[] } {
  const cores: TestCore[] = []
  const wrappers: VueWrapper[] = []
  afterEach(async () => {
    while (wrappers.length) wrappers.pop()?.unmount()
    document.body.innerHTML = ''
    while (cores.length) await cores.pop()?.core.dispose()
  })
  return { cores, wrappers }
}
