import { ref } from 'vue'
import { desk } from '../desk'
import { CallScope, withCallScope } from './callScope'
import { i18n } from '../i18n'

/** What a cancelled save says: the request may have reached the server before it was aborted. */
export const cancelledSaveMessage = (): string => i18n.global.t('common.cancelledSave')

/**
 * A save that offers Cancel once it has run for `afterMs` (`slow`): `run(fn)` runs the save in a
 * call scope, `cancel()` aborts its calls in main (they answer kind 'cancelled').
 */
export function useSaveCancel(afterMs = 1000) {
  const slow = ref(false)
  let scope: CallScope | null = null

  async function run<T>(fn: () => Promise<T>): Promise<T> {
    const own = new CallScope()
    scope = own
    const timer = setTimeout(() => {
      if (scope === own) slow.value = true
    }, afterMs)
    try {
      return await withCallScope(own, fn)
    } finally {
      clearTimeout(timer)
      if (scope === own) {
        scope = null
        slow.value = false
      }
    }
  }

  async function cancel(): Promise<void> {
    await scope?.cancel(desk())
  }

  return { slow, run, cancel }
}
