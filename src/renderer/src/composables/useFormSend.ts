import { ref } from 'vue'
import type { AppErrorData } from '../../../shared/errors'
import { toAppError, useNotify } from './useErrors'
import { cancelledSaveMessage, useSaveCancel } from './useSaveCancel'
import { i18n } from '../i18n'

/**
 * How a form sends its request: `busy` while it runs; `done` gets the result; a refusal (or a
 * failure in `done`) shows the server's field messages on the fields and a toast (`failText`),
 * and what was typed stays. A send that runs over a second offers Cancel (`slow`, `cancel`): its
 * requests are aborted in main and the form keeps what was typed. `sendNew` is for a create form:
 * on success it also clears the saved draft and empties the form before `done`.
 */
export function useFormSend(form: {
  applyServerError: (e: AppErrorData) => void
  clearDraft: () => void
  reset: () => void
}) {
  const notify = useNotify()
  const busy = ref(false)
  const saveCancel = useSaveCancel()
  async function send<R>(failText: string, run: () => Promise<R>, done: (result: R) => void): Promise<void> {
    busy.value = true
    try {
      done(await saveCancel.run(run))
    } catch (e) {
      const err = toAppError(e)
      if (err.kind === 'cancelled') {
        notify.error(
          { kind: 'cancelled', message: cancelledSaveMessage() },
          i18n.global.t('common.saveCancelled')
        )
        return
      }
      form.applyServerError(err)
      notify.error(err, failText)
    } finally {
      busy.value = false
    }
  }
  const sendNew = <R>(failText: string, run: () => Promise<R>, done: (result: R) => void) =>
    send(failText, run, (result) => {
      form.clearDraft()
      form.reset()
      done(result)
    })
  return { busy, send, sendNew, slow: saveCancel.slow, cancel: saveCancel.cancel }
}
