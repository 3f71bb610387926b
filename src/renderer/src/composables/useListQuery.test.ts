import { describe, expect, it } from 'vitest'
import { ref } from 'vue'
import { useListQuery } from './listQuery'

interface Item {
  id: string
  name: string
  type: string
  createdAt: string
}

const items = ref<Item[]>(
  Array.from({ length: 10_000 }, (_, i) => ({
    id: `d${i}`,
    name: `Doc ${String(i).padStart(5, '0')}${i % 1000 === 7 ? ' budget' : ''}`,
    type: i % 2 ? 'PDF' : 'TXT',
    createdAt: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString()
  }))
)

describe('useListQuery', () => {
  it('searches by name, filters by type and sorts by name or date over 10,000 items', () => {
    const q = useListQuery(items, { name: (d) => d.name, type: (d) => d.type, date: (d) => d.createdAt })
    expect(q.filtered.value).toHaveLength(10_000)
    expect(q.filtered.value[0]!.id).toBe('d9999') // newest first by default
    q.search.value = 'BUDGET'
    expect(q.filtered.value.map((d) => d.id).sort()).toEqual(
      ['d1007', 'd2007', 'd3007', 'd4007', 'd5007', 'd6007', 'd7007', 'd8007', 'd9007', 'd7'].sort()
    )
    q.type.value = 'TXT'
    expect(q.filtered.value).toHaveLength(0)
    q.type.value = 'PDF'
    q.sort.value = 'name-asc'
    expect(q.filtered.value[0]!.id).toBe('d7')
    q.sort.value = 'name-desc'
    expect(q.filtered.value[0]!.id).toBe('d9007')
    q.search.value = ''
    q.type.value = null
    q.sort.value = 'oldest'
    expect(q.filtered.value[0]!.id).toBe('d0')
    expect(q.typeOptions.value.map((o) => o.value).sort()).toEqual(['PDF', 'TXT'])
  })
})
