/** A button's action: busy while it runs; a failure is told to the user, under `failed`. */
import { ref } from 'vue'
import { useNotify } from './useErrors'

export function useBusyAction() {
  const notify = useNotify()
  const busy = ref(false)
  async function run(work: () => Promise<void>, failed: string): Promise<void> {
    busy.value = true
    try {
      await work()
    } catch (e) {
      notify.error(e, failed)
    } finally {
      busy.value = false
    }
  }
  return { busy, run }
}
