import { computed } from 'vue'
import { afterEach, describe, expect, it } from 'vitest'
import { pendingRemoval, removalPending, withoutPending } from './useUndoable'

const items = [{ id: 'a1' }, { id: 'x:y' }, { id: 'a3' }]
afterEach(() => {
  pendingRemoval.value = new Set()
})

describe('withoutPending', () => {
  it('gives the list itself when nothing of its kind waits for removal', () => {
    expect(withoutPending('agents', items)).toBe(items)
    pendingRemoval.value = new Set(['tools:a1', 'agentDocuments:a1'])
    expect(withoutPending('agents', items)).toBe(items)
  })

  it('hides the items whose removal waits, in order, as removalPending says', () => {
    pendingRemoval.value = new Set(['agents:x:y', 'agents:a3', 'tools:a1', 'agents:gone'])
    expect(withoutPending('agents', items)).toEqual([{ id: 'a1' }])
    expect(items.filter((i) => !removalPending('agents', i.id))).toEqual([{ id: 'a1' }])
    expect(withoutPending('tools', items)).toEqual([{ id: 'x:y' }, { id: 'a3' }])
  })

  it('is reactive: a list computed with it follows the waiting removals', () => {
    const shown = computed(() => withoutPending('agents', items).map((i) => i.id))
    expect(shown.value).toEqual(['a1', 'x:y', 'a3'])
    pendingRemoval.value = new Set(['agents:a1'])
    expect(shown.value).toEqual(['x:y', 'a3'])
    pendingRemoval.value = new Set()
    expect(shown.value).toEqual(['a1', 'x:y', 'a3'])
  })
})
