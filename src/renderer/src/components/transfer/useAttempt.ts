/** A step of a transfer pane: busy while it runs, its failure in words (nothing typed is lost). */
import { ref } from 'vue'
import { toAppError } from '../../composables/useErrors'
import type { AppErrorData } from '../../../../shared/errors'

export function useAttempt() {
  const busy = ref(false)
  const problem = ref<string | null>(null)
  /** Runs `work`; on failure keeps the error in `problem` (or hands it to `onError`). */
  async function attempt(work: () => Promise<void>, onError?: (e: AppErrorData) => boolean): Promise<void> {
    busy.value = true
    problem.value = null
    try {
      await work()
    } catch (e) {
      const err = toAppError(e)
      if (!onError?.(err)) problem.value = err.message
    } finally {
      busy.value = false
    }
  }
  return { busy, problem, attempt }
}
