import { h } from 'vue'
import { NButton } from 'naive-ui'
import { useI18n } from 'vue-i18n'
import { feedback } from '../../composables/feedback'

/**
 * `const confirmDelete = useConfirmDelete()` in setup, then
 * `if (await confirmDelete(t('…deleteQuestion', { name }))) …` (the question, in the app's
 * language). The confirm button has data-testid="confirm-delete".
 */
export function useConfirmDelete(): (question: string, detail?: string) => Promise<boolean> {
  const { t } = useI18n()
  return (question: string, detail?: string) =>
    new Promise<boolean>((resolve) => {
      let settled = false
      const settle = (v: boolean) => {
        if (settled) return
        settled = true
        resolve(v)
      }
      void feedback().then(({ dialog }) => {
        const d = dialog.warning({
          title: question,
          content: detail ?? t('common.cannotUndo'),
          closable: true,
          maskClosable: true,
          onClose: () => settle(false),
          onMaskClick: () => settle(false),
          onAfterLeave: () => settle(false),
          action: () =>
            h('div', { style: 'display:flex;gap:8px;justify-content:flex-end' }, [
              h(
                NButton,
                {
                  'data-testid': 'confirm-cancel',
                  onClick: () => {
                    settle(false)
                    d.destroy()
                  }
                },
                { default: () => t('common.cancel') }
              ),
              h(
                NButton,
                {
                  type: 'error',
                  'data-testid': 'confirm-delete',
                  onClick: () => {
                    settle(true)
                    d.destroy()
                  }
                },
                { default: () => t('common.delete') }
              )
            ])
        })
      })
    })
}
