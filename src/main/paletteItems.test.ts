/**
 * `palette.items` read from a real cache file a step at a time: every named item once, each kind in
 * its place, newest first, with a turn of the event loop between steps, and writes between steps
 * neither repeating nor losing an item that stays.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type TempStores, tempStores } from '../../test/support/offlineStores'
import { rankIndex, textsAt } from '../shared/fuzzy'
import { kindAt, type PaletteNames } from '../shared/palette'
import { paletteItems } from './paletteItems'

let t: TempStores
beforeEach(() => {
  t = tempStores()
})
afterEach(() => t.cleanup())

const T1 = '2024-01-01T00:00:00.000Z'

/** The columns back as `kind:id name (description)`, in order. */
function rows(p: PaletteNames): string[] {
  const index = rankIndex(p.names, p.descriptions)
  return p.ids.map((id, i) => {
    const { text, detail } = textsAt(index, i)
    return `${kindAt(p, i)}:${id} ${text}${detail ? ` (${detail})` : ''}`
  })
}

describe('paletteItems', () => {
  it('reads every named item once, kinds in order, newest first, a step at a time', async () => {
    const { cache } = t.open()
    const agents = Array.from({ length: 2_345 }, (_, i) => ({
      id: `a${i}`,
      name: `Agent ${i}`,
      type: 'REACT'
    }))
    cache.putList('agents', '', agents, T1)
    cache.putItem('tools', { id: 't1', name: 'Web search', description: 'Finds pages' }, T1)
    cache.putItem('apiTokens', { id: 'k1', description: 'CI token' }, T1)
    cache.putItem('prompts', { id: 'p0' }, T1) // no name, no description: not listed
    let turns = 0
    const got = await paletteItems(cache, { step: 500, turn: async () => void turns++ })
    // 2,345 agents in 5 steps (4 turns); one step for each other kind.
    expect(turns).toBe(4)
    expect(got.counts).toEqual([2_345, 0, 1, 0, 0, 1])
    const seen = cache.catalogue<{ id: string }>('agents').map((a) => a.id)
    expect(rows(got)).toEqual([
      ...seen.map((id) => `agents:${id} Agent ${id.slice(1)}`),
      'tools:t1 Web search (Finds pages)',
      'apiTokens:k1 CI token'
    ])
    // The same as read at once.
    expect(await paletteItems(cache, { step: 100_000 })).toEqual(got)
  })

  it('lists an item that stays once, whatever is written between steps', async () => {
    const { cache } = t.open()
    cache.putList(
      'agents',
      '',
      Array.from({ length: 1_000 }, (_, i) => ({ id: `a${i}`, name: `Agent ${i}` })),
      T1
    )
    const before = cache.catalogue<{ id: string }>('agents').map((a) => a.id)
    let step = 0
    const got = await paletteItems(cache, {
      step: 300,
      turn: async () => {
        step++
        // Between steps: one read already is renamed, one not read yet removed, a new one added.
        if (step === 1) {
          cache.putItem('agents', { id: before[0] as string, name: 'Renamed' }, T1)
          cache.removeItem('agents', before[900] as string)
          cache.putItem('agents', { id: 'new', name: 'New' }, T1)
        }
      }
    })
    const ids = got.ids
    expect(new Set(ids).size).toBe(ids.length)
    // (One added meanwhile may or may not be read.)
    const stayed = before.filter((id) => id !== before[900])
    expect(ids.filter((id) => id !== 'new').sort()).toEqual([...stayed].sort())
  })
})
