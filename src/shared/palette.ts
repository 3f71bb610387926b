/**
 * What the command palette lists from the offline cache (`palette.items`): names, not whole
 * items, sent as columns (each kind's names one after another in one text), so that neither main
 * nor the page makes an object a name, and the palette ranks them where they arrive
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

/** The columns of the items of each kind (in `PALETTE_KINDS` order). */
export function paletteNames(byKind: readonly (readonly Named[])[]): PaletteNames {
  const all = byKind.flat()
  return {
    counts: PALETTE_KINDS.map((_, k) => byKind[k]?.length ?? 0),
    ids: all.map((r) => r.id),
    names: joinTexts(all.map((r) => r.name)),
    descriptions: joinTexts(all.map((r) => r.description))
  }
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
