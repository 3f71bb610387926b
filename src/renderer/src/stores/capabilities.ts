import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { Capabilities } from '../../../shared/ipc'
import { desk } from '../desk'

/**
 * What the server offers, per IPC channel name (e.g. `agents.update`). Unknown counts as offered:
 * the app tries, and main records a 404/405 as `not_offered` (then `data.changed`/reload updates it).
 */
export const useCapabilitiesStore = defineStore('capabilities', () => {
  const caps = ref<Capabilities>({})
  const loaded = ref(false)

  async function load(): Promise<void> {
    try {
      caps.value = (await desk().capabilities.get()) ?? {}
    } catch {
      caps.value = {}
    } finally {
      loaded.value = true
    }
  }

  /** True unless the server is known not to offer `op`. */
  function offered(op: string): boolean {
    return caps.value[op] !== 'not_offered'
  }

  /** Records a `not_offered` answer seen by the renderer, so the UI hides the action at once. */
  function markNotOffered(op: string): void {
    caps.value = { ...caps.value, [op]: 'not_offered' }
  }

  return { caps, loaded, load, offered, markNotOffered }
})
