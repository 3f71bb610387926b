import { ref } from 'vue'
import type { AppErrorData } from '../../../shared/errors'
import { toAppError, useNotify } from './useErrors'

/**
 * How a form sends its request: `busy` while it runs; `done` gets the result; a refusal (or a
 * failure in `done`) shows the server's field messages on the fields and a toast (`failText`),
 * and what was typed stays. `sendNew` is for a create form: on success it also clears the saved
 * draft and empties the form before `done`.
 */
export function useFormSend(form: {
  applyServerError: (e: AppErrorData) => void
  clearDraft: () => void
  reset: () => void
}) {
  const notify = useNotify()
  const busy = ref(false)
  async function send<R>(failText: string, run: () => Promise<R>, done: (result: R) => void): Promise<void> {
    busy.value = true
    try {
      done(await run())
    } catch (e) {
      const err = toAppError(e)
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
  return { busy, send, sendNew }
}
