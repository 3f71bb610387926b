import { computed, onMounted, ref, watch, type Ref } from 'vue'
import { useListSelection } from './useListSelection'
import type { AppErrorData } from '../../../shared/errors'
import type { Channel } from '../../../shared/ipc'
import { useCapabilitiesStore } from '../stores/capabilities'
import { reportWrite, toAppError, useNotify } from './useErrors'
import { onCreateRequest } from './createRequests'

/** What a list page needs of its store. */
interface PageStore<T> {
  find(id: string): T | undefined
  /** Reads the item again (its answer says whether it came from the offline cache, and its age). */
  get(id: string): Promise<{ offline: boolean; syncedAt: string | null }>
  load(): Promise<void>
}

export interface ListPageOptions<T> {
  store: PageStore<T>
  /** The store's list error (toasted when it changes). */
  error: Ref<AppErrorData | null>
  /** The page's route, `/documents`; an item is `/documents/:id`. */
  path: string
  /** The page's own words: `openFailed` ("Could not open the document"), `loadFailed`, `created`. */
  text: (key: 'openFailed' | 'loadFailed' | 'created') => string
  /** The operation creating needs; where the server does not offer it the button is disabled. */
  createChannel?: Channel
  /**
   * Asks for the selected item even when the list holds it (a list entry may be partial; the cached
   * one paints at once). Default true.
   */
  refreshSelected?: boolean
  /** The text the detail pane shows when an item cannot be opened. Default: the error's message. */
  openErrorText?: (err: AppErrorData, id: string) => string
  /** Whether a list error is toasted. Default: every one. */
  notifyListError?: (err: AppErrorData) => boolean
}

/**
 * The master/detail behaviour every list page shares: the item of `/<path>/:id` is selected and
 * (re)read, the create form replaces the detail pane, the list and the capabilities load when the
 * page mounts, and failures are toasted (an offline read of a known item is not a failure).
 */
export function useListPage<T extends { id: string }>(opts: ListPageOptions<T>) {
  const sel = useListSelection(opts.path)
  const { selectedId, creating } = sel
  const notify = useNotify()
  const caps = useCapabilitiesStore()
  const { store } = opts

  const selected = computed(() => (selectedId.value ? store.find(selectedId.value) : undefined))
  const detailLoading = ref(false)
  const detailError = ref<string | null>(null)
  /** The selected item as last read: from the server, or a saved copy (offline) of this age. */
  const detailCopy = ref<{ offline: boolean; syncedAt: string | null } | null>(null)

  async function fetchSelected(id: string): Promise<void> {
    detailCopy.value = null
    if (opts.refreshSelected === false && store.find(id)) return
    detailLoading.value = true
    detailError.value = null
    try {
      const r = await store.get(id)
      if (selectedId.value === id) detailCopy.value = { offline: r.offline, syncedAt: r.syncedAt }
    } catch (e) {
      const err = toAppError(e)
      const known = !!store.find(id)
      if (!known) detailError.value = opts.openErrorText?.(err, id) ?? err.message
      // Offline with the item in the cache: the page shows it and the offline badge says why.
      if (!(known && (err.kind === 'network' || err.kind === 'timeout'))) {
        notify.error(err, opts.text('openFailed'))
      }
    } finally {
      detailLoading.value = false
    }
  }

  watch(
    selectedId,
    (id) => {
      if (!id) return
      creating.value = false
      void fetchSelected(id)
    },
    { immediate: true }
  )

  watch(opts.error, (e) => {
    if (e && (opts.notifyListError?.(e) ?? true)) notify.error(e, opts.text('loadFailed'))
  })

  onMounted(() => {
    if (!caps.loaded) void caps.load()
    void store.load()
  })

  const canCreate = computed(() => !opts.createChannel || caps.offered(opts.createChannel))
  function startCreate(): void {
    if (canCreate.value) sel.startCreate()
  }
  // File › New … in the application menu.
  onCreateRequest(opts.path, startCreate)

  /** Toasts a create's outcome (done or queued offline). */
  function reportCreate(w: { status: 'done' | 'queued' }, label: string): void {
    reportWrite(notify, w, opts.text('created'), label)
  }

  return {
    route: sel.route,
    router: sel.router,
    notify,
    caps,
    selectedId,
    selected,
    creating,
    detailLoading,
    detailError,
    detailCopy,
    fetchSelected,
    open: sel.open,
    canCreate,
    startCreate,
    reportCreate,
    showCreated: sel.showCreated
  }
}
