import { computed, ref, type Ref } from 'vue'
import { valueOptions } from '../labels'
import { nameOrder } from './nameOrder'

/**
 * Search by name, filter by type and tags, sort by name or date, over a (possibly 10,000-item)
 * list. Used by every list view.
 *
 * Built for a keystroke to cost one pass: the list is sorted (and each name lower-cased) only when
 * the items or the sort change; a change of the search text, type or tags only filters that
 * sorted list, which keeps its order.
 */
export type SortKey = 'name-asc' | 'name-desc' | 'newest' | 'oldest'

/** The sort orders, in the order the sort menu offers them (labels: locales/<locale>/resources.json). */
export const SORT_KEYS: readonly SortKey[] = ['name-asc', 'name-desc', 'newest', 'oldest']

function time(iso: string | null | undefined): number {
  if (!iso) return 0
  const t = Date.parse(iso)
  return Number.isNaN(t) ? 0 : t
}

/**
 * A list's row as its virtual list takes it: an item, and its id as the row's key (`key-field`).
 * These are made once per sort, in the list's order, and a keystroke's result holds the same ones.
 */
export interface KeyedItem<T> {
  readonly id: string
  readonly item: T
}

export interface ListQueryOptions<T> {
  name: (t: T) => string
  type?: (t: T) => string | null | undefined
  date?: (t: T) => string | null | undefined
  /** The ids of an item's tags (lists whose items carry tags). */
  tags?: (t: T) => readonly string[]
  /** Known types, offered in the filter even when no item has them. */
  types?: readonly string[]
  initialSort?: SortKey
}

/** Types looked for in a list before a Set holds them (typeOptions). */
const FEW_TYPES = 16

export function useListQuery<T extends { id: string }>(items: Ref<T[]>, opts: ListQueryOptions<T>) {
  const search = ref('')
  const type = ref<string | null>(null)
  /** Tag ids an item must all carry. */
  const tags = ref<string[]>([])
  const sort = ref<SortKey>(opts.initialSort ?? 'newest')

  /** Whether the type filter's menu was opened (`listTypes`): only then are the items' types looked for. */
  const typesWanted = ref(false)

  /**
   * The known types (and the chosen one), and once the type filter's menu was opened (`listTypes`)
   * any other an item has. A list holds a few types: each item's is looked for among those found so
   * far (a Set past FEW_TYPES). Added to a Set one by one, 100,000 agents' took ~20 ms of their
   * first paint in the page (each a string of its own, hashed); looked for so, 12 ms, now spent only
   * when the menu opens.
   */
  const typeOptions = computed(() => {
    const found = [...(opts.types ?? [])]
    const chosen = type.value
    if (!typesWanted.value)
      return valueOptions(chosen && !found.includes(chosen) ? [...found, chosen] : found)
    let many: Set<string> | null = null
    const typeOf = opts.type
    if (typeOf) {
      const list = items.value
      for (let i = 0; i < list.length; i++) {
        const v = typeOf(list[i] as T)
        if (!v || (many ? many.has(v) : found.includes(v))) continue
        found.push(v)
        if (many) many.add(v)
        else if (found.length > FEW_TYPES) many = new Set(found)
      }
    }
    return valueOptions(found)
  })

  /**
   * The rows in the chosen order (with the names and their order, for `searchKeys`). Made after the
   * sort, so a list of 100,000 in name order is made once.
   */
  const sorted = computed<{ rows: KeyedItem<T>[]; names: string[]; order: number[] | null }>(() => {
    const s = sort.value
    const list = items.value
    const n = list.length
    const names = new Array<string>(n)
    for (let i = 0; i < n; i++) names[i] = opts.name(list[i] as T)
    let order: number[] | null = null
    if (s === 'name-asc' || s === 'name-desc') order = nameOrder(names, s === 'name-asc' ? 1 : -1)
    else if (opts.date) {
      const dir = s === 'newest' ? -1 : 1
      const times = new Float64Array(n)
      for (let i = 0; i < n; i++) times[i] = time(opts.date(list[i] as T))
      order = Array.from({ length: n }, (_, i) => i)
      order.sort((a, b) => dir * ((times[a] as number) - (times[b] as number)))
    }
    const rows = new Array<KeyedItem<T>>(n)
    for (let i = 0; i < n; i++) {
      const item = list[order ? (order[i] as number) : i] as T
      rows[i] = { id: item.id, item }
    }
    return { rows, names, order }
  })

  /**
   * Each row's lower-cased name, for the search: made at the first search after a sort, not before
   * the list is painted (100,000 agents' names, ~11 ms in Node), in the rows' order, so a keystroke
   * reads them in the order they were made. Over 100,000 agents in name order, the filter took ~3
   * ms a key in Node against ~5–10 ms over names lower-cased before the sort (in the server's
   * order); in the page, the virtual list's index of the rows took ~37–49 ms a key against ~53–55 ms
   * for the items themselves.
   */
  const searchKeys = computed<string[]>(() => {
    const { names, order } = sorted.value
    const n = names.length
    const keys = new Array<string>(n)
    for (let i = 0; i < n; i++) keys[i] = (names[order ? (order[i] as number) : i] as string).toLowerCase()
    return keys
  })

  /** The sorted rows whose items pass the filters; with none set, the sorted rows themselves (one array). */
  const rows = computed<KeyedItem<T>[]>(() => {
    const q = search.value.trim().toLowerCase()
    const ty = type.value
    const getType = opts.type
    const wanted = tags.value
    const getTags = opts.tags
    const all = sorted.value.rows
    if (!q && !ty && wanted.length === 0) return all
    const keys = q ? searchKeys.value : null
    const out: KeyedItem<T>[] = []
    for (let i = 0; i < all.length; i++) {
      if (keys && !(keys[i] as string).includes(q)) continue
      const row = all[i] as KeyedItem<T>
      if (ty && getType && getType(row.item) !== ty) continue
      if (wanted.length && getTags) {
        const has = getTags(row.item)
        if (!wanted.every((id) => has.includes(id))) continue
      }
      out.push(row)
    }
    return out
  })

  /** The type filter's menu opens: its options then hold every type an item has. */
  function listTypes(): void {
    typesWanted.value = true
  }

  function toggleTag(id: string): void {
    tags.value = tags.value.includes(id) ? tags.value.filter((t) => t !== id) : [...tags.value, id]
  }

  const active = computed(() => !!search.value.trim() || !!type.value || tags.value.length > 0)

  return { search, type, tags, sort, typeOptions, listTypes, rows, toggleTag, active }
}
