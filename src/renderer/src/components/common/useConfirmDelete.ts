import { h } from 'vue'
import { NButton, useDialog } from 'naive-ui'

/**
 * `const confirmDelete = useConfirmDelete()` in setup, then
 * `if (await confirmDelete('document “Q3”')) …`. The confirm button has data-testid="confirm-delete".
 */
export function useConfirmDelete(): (what: string, detail?: string) => Promise<boolean> {
  const dialog = useDialog()
  return (what: string, detail?: string) =>
    new Promise<boolean>((resolve) => {
      let settled = false
      const settle = (v: boolean) => {
        if (settled) return
        settled = true
        resolve(v)
      }
      const d = dialog.warning({
        title: `Delete ${what}?`,
        content: detail ?? 'This cannot be undone.',
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
              { default: () => 'Cancel' }
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
              { default: () => 'Delete' }
            )
          ])
      })
    })
}
