import { computed, ref, type Ref } from 'vue'

/**
 * Search / type filter / sort over a (possibly 10,000-item) list. Shared by the Documents, Tools,
 * Prompts and API tokens views. Filtering is one pass; sorting uses one Intl.Collator.
 */
export type SortKey = 'name-asc' | 'name-desc' | 'newest' | 'oldest'

export const SORT_OPTIONS: { label: string; value: SortKey }[] = [
  { label: 'Name A–Z', value: 'name-asc' },
  { label: 'Name Z–A', value: 'name-desc' },
  { label: 'Newest first', value: 'newest' },
  { label: 'Oldest first', value: 'oldest' }
]

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true })

function time(iso: string | null | undefined): number {
  if (!iso) return 0
  const t = Date.parse(iso)
  return Number.isNaN(t) ? 0 : t
}

export function useListQuery<T extends { id: string }>(
  items: Ref<T[]>,
  opts: {
    name: (t: T) => string
    type?: (t: T) => string | undefined
    date?: (t: T) => string | null | undefined
    /** Known types, offered in the filter even when no item has them. */
    types?: readonly string[]
    initialSort?: SortKey
  }
) {
  const search = ref('')
  const type = ref<string | null>(null)
  const sort = ref<SortKey>(opts.initialSort ?? 'newest')

  const typeOptions = computed(() => {
    const set = new Set<string>(opts.types ?? [])
    if (opts.type)
      for (const t of items.value) {
        const v = opts.type(t)
        if (v) set.add(v)
      }
    return [...set].map((v) => ({ label: v, value: v }))
  })

  const filtered = computed<T[]>(() => {
    const q = search.value.trim().toLowerCase()
    const ty = type.value
    const getType = opts.type
    let out = items.value.filter(
      (t) => (!q || opts.name(t).toLowerCase().includes(q)) && (!ty || !getType || getType(t) === ty)
    )
    const s = sort.value
    if (s === 'name-asc' || s === 'name-desc') {
      const dir = s === 'name-asc' ? 1 : -1
      out = out.sort((a, b) => dir * collator.compare(opts.name(a), opts.name(b)))
    } else if (opts.date) {
      const dir = s === 'newest' ? -1 : 1
      const date = opts.date
      out = out.sort((a, b) => dir * (time(date(a)) - time(date(b))))
    }
    return out
  })

  return { search, type, sort, typeOptions, filtered }
}
