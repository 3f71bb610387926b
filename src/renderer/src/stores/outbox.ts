import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { OutboxEntry, OutboxResolution } from '../../../shared/ipc'
import type { AppErrorData } from '../../../shared/errors'
import { desk } from '../desk'
import { toAppError } from '../composables/useErrors'

/** Changes made offline, waiting to be sent (kept current by `outbox.changed`). */
export const useOutboxStore = defineStore('outbox', () => {
  const entries = shallowRef<OutboxEntry[]>([])
  const loading = ref(false)
  const error = shallowRef<AppErrorData | null>(null)
  let subscribed = false

  const pendingCount = computed(() => entries.value.length)
  const failedCount = computed(() => entries.value.filter((e) => e.status === 'failed').length)

  function set(list: OutboxEntry[]): void {
    entries.value = Array.isArray(list) ? [...list].sort((a, b) => a.seq - b.seq) : []
  }

  async function load(): Promise<void> {
    const api = desk()
    if (!subscribed) {
      subscribed = true
      api.on('outbox.changed', (list) => set(list))
    }
    loading.value = true
    error.value = null
    try {
      set(await api.outbox.list())
    } catch (e) {
      error.value = toAppError(e)
    } finally {
      loading.value = false
    }
  }

  async function retry(id: string): Promise<void> {
    set(await desk().outbox.retry({ id }))
  }

  async function discard(id: string): Promise<void> {
    set(await desk().outbox.discard({ id }))
  }

  /** The user's word on an uncertain or conflicting change. */
  async function resolve(id: string, action: OutboxResolution): Promise<void> {
    set(await desk().outbox.resolve({ id, action }))
  }

  return { entries, loading, error, pendingCount, failedCount, load, retry, discard, resolve, set }
})
