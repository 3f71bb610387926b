import { computed, ref } from 'vue'
import { useRoute, useRouter } from 'vue-router'

/**
 * The core every list page shares (useListPage builds on it; the agents page, part of the entry,
 * uses it alone): the item of `/<path>/:id` is the selected one, the create form replaces the
 * detail pane, and opening an item or what a create made goes to its route.
 */
export function useListSelection(path: string, creatingAtFirst = false) {
  const route = useRoute()
  const router = useRouter()
  const selectedId = computed(() =>
    typeof route.params.id === 'string' && route.params.id ? route.params.id : null
  )
  const creating = ref(creatingAtFirst)
  const itemPath = (id: string) => `${path}/${encodeURIComponent(id)}`

  function open(item: { id: string }): void {
    void router.push(itemPath(item.id))
  }
  function startCreate(): void {
    creating.value = true
    if (selectedId.value) void router.push(path)
  }
  /** Closes the create form and opens what it made. */
  function showCreated(id: string | null | undefined): void {
    creating.value = false
    if (id) void router.push(itemPath(id))
  }
  return { route, router, selectedId, creating, open, startCreate, showCreated }
}
