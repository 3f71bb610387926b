/**
 * What the command palette lists from the offline cache (`palette.items`): names, not whole
 * items, sent as columns (each kind's names one after another in one text): no object a name
 * crosses to the page or is made there, and the palette ranks the names where they arrive
 * (`rankIndex` in ./fuzzy).
 */
import { joinTexts, type Texts } from './fuzzy'

export const PALETTE_KINDS = ['agents', 'documents', 'tools', 'prompts', 'tags', 'apiTokens'] as const
export type PaletteKind = (typeof PALETTE_KINDS)[number]

/** One cached item by name. */
export interface PaletteItem {
  kind: PaletteKind
  id: string
  /** Its name (an API token, which has none: its description). */
  name: string
  /** The item's description (agents' type, tools' and prompts' description), when it has one. */
  description: string | null
}

/** Every cached item by name: the i-th item is `ids[i]`, named by the i-th of `names`. */
export interface PaletteNames {
  /** How many items of each kind, in `PALETTE_KINDS` order (agents first). */
  counts: number[]
  ids: string[]
  names: Texts
  /** Their descriptions (an empty one: none). */
  descriptions: Texts
}

type Named = Pick<PaletteItem, 'id' | 'name' | 'description'>

/**
 * Columns made a step at a time (main reads the names from its cache in steps): each step's rows
 * of one kind, the kinds in `PALETTE_KINDS` order. A step's texts are joined as it comes, and the
 * steps' once at the end.
 */
export function paletteColumns(): {
  add(kind: PaletteKind, rows: readonly Named[]): void
  done(): PaletteNames
} {
  const counts = PALETTE_KINDS.map(() => 0)
  const ids: string[] = []
  const names: string[] = []
  const nameLengths: number[] = []
  const descriptions: string[] = []
  const descriptionLengths: number[] = []
  let last = 0
  return {
    add(kind, rows) {
      const k = PALETTE_KINDS.indexOf(kind)
      if (k < last) throw new Error(`palette: ${kind} after ${PALETTE_KINDS[last]}`)
      last = k
      counts[k] = (counts[k] ?? 0) + rows.length
      const n = joinTexts(rows.map((r) => r.name))
      const d = joinTexts(rows.map((r) => r.description))
      for (const r of rows) ids.push(r.id)
      names.push(n.all)
      nameLengths.push(...n.lengths)
      descriptions.push(d.all)
      descriptionLengths.push(...d.lengths)
    },
    done: () => ({
      counts,
      ids,
      names: { all: names.join(''), lengths: nameLengths },
      descriptions: { all: descriptions.join(''), lengths: descriptionLengths }
    })
  }
}

/** The columns of the items of each kind (in `PALETTE_KINDS` order). */
export function paletteNames(byKind: readonly (readonly Named[])[]): PaletteNames {
  const columns = paletteColumns()
  PALETTE_KINDS.forEach((kind, k) => columns.add(kind, byKind[k] ?? []))
  return columns.done()
}

/** The kind of the i-th item. */
export function kindAt(p: PaletteNames, i: number): PaletteKind {
  let end = 0
  for (let k = 0; k < PALETTE_KINDS.length; k++) {
    end += p.counts[k] ?? 0
    if (i < end) return PALETTE_KINDS[k] as PaletteKind
  }
  throw new RangeError(`palette: no item ${i}`)
}
