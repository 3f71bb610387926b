/**
 * `palette.items`: every cached agent, document, tool, prompt, tag and API token by name, as the
 * columns the palette ranks (shared/palette.ts). Read from the offline cache a step at a time:
 * SQLite reads each item's JSON for its name (~6 µs an item on the bench machine, 0.7 s for
 * 100,000 agents at once), so main gives the event loop a turn between steps.
 */
import { PALETTE_KINDS, paletteColumns, type PaletteNames } from '../shared/palette'
import type { CacheStore } from './offline/types'
import { turnEvery } from './turn'

/** Items read a step. */
export const NAMES_STEP = 1000

export async function paletteItems(
  cache: Pick<CacheStore, 'names'>,
  { step = NAMES_STEP, turn = turnEvery() }: { step?: number; turn?: () => Promise<void> } = {}
): Promise<PaletteNames> {
  const columns = paletteColumns()
  for (const kind of PALETTE_KINDS) {
    for (let before: number | null = null; ;) {
      const page = cache.names(kind, before, step)
      columns.add(kind, page.rows)
      if (page.next === null) break
      before = page.next
      await turn()
    }
  }
  return columns.done()
}
