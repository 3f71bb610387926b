// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { joinTexts, rank, rankIndex } from '../../../../shared/fuzzy'
import { paletteNames } from '../../../../shared/palette'
import { commandEntries, commandIndex, itemIndex, paletteResults, type PaletteEntry } from './paletteEntries'

const t = (key: string, named?: Record<string, unknown>) => (named ? `${key} ${String(named.view)}` : key)
const command = (text: string, i: number): PaletteEntry => ({
  kind: 'command',
  key: `command:${i}`,
  text,
  run: () => undefined
})
type Row = { id: string; name: string; description: string | null }

describe('paletteResults', () => {
  it('ranks commands and items as one list would: commands first among equals (property)', () => {
    const word = fc.constantFrom('web', 'Web search', 'go', 'Support bot', 'sb', 'Agent 7', 'tools', '')
    fc.assert(
      fc.property(
        fc.array(word.filter(Boolean), { maxLength: 8 }),
        fc.array(fc.tuple(word.filter(Boolean), fc.option(word)), { maxLength: 3 }),
        fc.array(fc.tuple(word.filter(Boolean), fc.option(word)), { maxLength: 3 }),
        fc.constantFrom('', 'w', 'web', 'sb', 'go', 'a7', 'pages'),
        fc.integer({ min: 1, max: 10 }),
        (titles, agents, tools, query, limit) => {
          const commands = commandIndex(titles.map(command))
          const rows = (kind: string, xs: [string, string | null][]): Row[] =>
            xs.map(([name, description], i) => ({ id: `${kind}${i}`, name, description }))
          const sent = paletteNames([rows('a', agents), [], rows('t', tools)])
          const got = paletteResults(query, commands, itemIndex(sent), limit)
          // One list, commands first: how the palette ranked before items came as columns.
          const all = [
            ...titles.map((text, i) => ({ text, detail: null, key: `command:${i}` })),
            ...rows('a', agents).map((r) => ({ text: r.name, detail: r.description, key: `agents:${r.id}` })),
            ...rows('t', tools).map((r) => ({ text: r.name, detail: r.description, key: `tools:${r.id}` }))
          ]
          const one = rankIndex(joinTexts(all.map((e) => e.text)), joinTexts(all.map((e) => e.detail)))
          const want = rank(query, one, limit).map((r) => all[r.index])
          expect(got.map((e) => [e.key, e.text, e.detail ?? null])).toEqual(
            want.map((e) => [e?.key, e?.text, e?.detail || null])
          )
        }
      ),
      { numRuns: 500 }
    )
  })

  it('makes an entry of an item: its kind, name, description and key', () => {
    const sent = paletteNames([
      [],
      [{ id: 'd1', name: 'Runbook', description: null }],
      [{ id: 't1', name: 'Web search', description: 'Finds pages' }]
    ])
    const [tool] = paletteResults('pages', commandIndex([]), itemIndex(sent), 5)
    expect(tool).toMatchObject({ kind: 'tools', key: 'tools:t1', text: 'Web search', detail: 'Finds pages' })
    const [doc] = paletteResults('runbk', commandIndex([]), itemIndex(sent), 5)
    expect(doc).toMatchObject({ kind: 'documents', key: 'documents:d1', text: 'Runbook' })
    expect(doc && 'detail' in doc).toBe(false)
    // Before the items arrive, only commands.
    expect(
      paletteResults('', commandIndex(commandEntries(t)), null, 100).every((e) => e.kind === 'command')
    ).toBe(true)
  })
})
