/**
 * A report (import or copy) on screen, and its Undo: what was created is removed again (main tells
 * the views to read their lists again).
 */
import { ref, shallowRef } from 'vue'
import { useI18n } from 'vue-i18n'
import type { TransferReport } from '../../../../shared/transfer'
import { desk } from '../../desk'
import { useNotify } from '../../composables/useErrors'

export function useTransferReport() {
  const { t } = useI18n()
  const notify = useNotify()
  const report = shallowRef<TransferReport | null>(null)
  const undoing = ref(false)

  async function undo(): Promise<void> {
    const r = report.value
    if (!r) return
    undoing.value = true
    try {
      const res = await desk().transfer.undo({ transferId: r.transferId })
      if (res.failed.length) {
        const why = res.failed.map((f) => `${f.name}: ${f.reason}`).join('; ')
        notify.error(new Error(why), t('transfer.undoFailed'))
      } else notify.success(t('transfer.undone', { n: res.removed }))
      report.value = { ...r, entries: [], failure: null }
    } catch (e) {
      notify.error(e, t('transfer.undoFailed'))
    } finally {
      undoing.value = false
    }
  }
  return { report, undoing, undo }
}
