/** The floor page's one component: a filter, a count and the virtual list of rows (see main.ts). */
import { computed, defineComponent, h, ref, shallowRef } from 'vue'
import { NInput, NTag } from 'naive-ui'
import VirtualRows from '../../../src/renderer/src/components/common/VirtualRows.vue'
import { nameOrder } from '../../../src/renderer/src/composables/nameOrder'

export interface Item {
  id: string
  name: string
  type?: string
  createdAt?: string
  /** Agents' tags: the app's agent rows show the first three (and "+N"), so the floor does too. */
  tags?: { id: string; name?: string; color?: string | null }[]
}
export interface FloorData {
  mode: 'start' | 'list'
  resource: string
  testid: string
  items: Item[]
}
/**
 * A row of the virtual list: `id` is its key, as the app's rows are keyed by the item's id. (Until
 * 2026-11-27 every row's key was undefined: the list patched rows in place and its key map held one
 * entry, less than any list whose rows keep their identity can do.)
 */
interface Row {
  id: string
  item: Item
}

/**
 * The rows in name order, as the app shows a list (since 2026-11-30: before, the floor showed the
 * server's order, and the app's sort of 100,000 names, ~120 ms of its first paint, had no
 * counterpart here).
 */
function rowsOf(items: Item[]): Row[] {
  const order = nameOrder(
    items.map((item) => item.name),
    1
  )
  return order.map((i) => {
    const item = items[i] as Item
    return { id: item.id, item }
  })
}

/** Dates are formatted per painted row, as the app formats them. */
const dates = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })

export const Floor = defineComponent({
  props: { testid: { type: String, required: true }, initial: { type: Array, required: true } },
  setup(props, { expose }) {
    const rows = shallowRef<Row[]>(rowsOf(props.initial as Item[]))
    const search = ref('')
    // Each row's lower-cased name, made at the first search (as the app does).
    const keys = computed(() => rows.value.map((r) => r.item.name.toLowerCase()))
    const filtered = computed(() => {
      const q = search.value.trim().toLowerCase()
      if (!q) return rows.value
      const k = keys.value
      return rows.value.filter((_, i) => (k[i] as string).includes(q))
    })
    expose({ set: (items: Item[]) => (rows.value = rowsOf(items)) })
    return () =>
      h(
        'div',
        { style: 'display:flex;flex-direction:column;height:100vh;padding:12px;box-sizing:border-box' },
        [
          h('div', { style: 'display:flex;gap:8px;align-items:center;margin-bottom:8px' }, [
            h(NInput, {
              value: search.value,
              'onUpdate:value': (v: string) => (search.value = v),
              placeholder: 'Filter by name',
              clearable: true,
              'data-testid': 'list-filter'
            }),
            h('span', { 'data-testid': 'list-count' }, String(filtered.value.length))
          ]),
          h(
            VirtualRows,
            {
              items: filtered.value,
              itemSize: 44,
              style: 'flex:1;min-height:0',
              'data-testid': `${props.testid}-list`
            },
            {
              default: ({ item }: { item: Row }) =>
                h(
                  'div',
                  {
                    key: item.item.id,
                    'data-testid': `${props.testid}-row`,
                    style: 'height:44px;display:flex;align-items:center;gap:8px;padding:0 10px'
                  },
                  [
                    h(
                      'span',
                      { style: 'flex:1;min-width:0;overflow:hidden;white-space:nowrap' },
                      item.item.name
                    ),
                    item.item.type
                      ? h(NTag, { size: 'tiny', round: true, bordered: false }, () => item.item.type)
                      : null,
                    ...(item.item.tags ?? []).slice(0, 3).map((tag) =>
                      h(
                        'span',
                        {
                          style: `font-size:12px;padding:1px 8px;border-radius:10px;background:${tag.color ?? '#ddd'}`
                        },
                        tag.name ?? tag.id
                      )
                    ),
                    item.item.tags && item.item.tags.length > 3
                      ? h('span', { style: 'font-size:11px' }, `+${item.item.tags.length - 3}`)
                      : null,
                    h(
                      'span',
                      { style: 'font-size:11px;opacity:.6' },
                      item.item.createdAt ? dates.format(new Date(item.item.createdAt)) : ''
                    )
                  ]
                )
            }
          )
        ]
      )
  }
})
