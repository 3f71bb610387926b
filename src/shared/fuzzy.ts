/**
 * The command palette's fuzzy matcher, written once: the palette filters with it and the benchmark
 * measures it against a plain loop over the same names.
 *
 * A query matches a text when its characters appear in the text in order (case-insensitive;
 * spaces in the query are ignored). The score rewards what people mean when they type a few
 * letters: a match at the start of the text, at the start of words ("dh" → "Document handbook"),
 * and runs of consecutive characters; it penalises gaps and long texts a little, so that among
 * equal matches the shorter name wins.
 */

/** The lower-case form a text is matched against (computed once per item by callers). */
export const foldText = (s: string): string => s.toLowerCase()

const isBoundary = (prev: string): boolean =>
  prev === ' ' || prev === '-' || prev === '_' || prev === '.' || prev === '/' || prev === '(' || prev === ':'

/** A lower-case letter followed by an upper-case one: a camelCase word start. */
const camelStart = (original: string, i: number): boolean => {
  const c = original.charCodeAt(i)
  const p = original.charCodeAt(i - 1)
  return c >= 65 && c <= 90 && p >= 97 && p <= 122
}

/**
 * The score of `text` for `query` (both already folded with `foldText`; the query without
 * spaces), or null when it does not match. Higher is better. `original` is the unfolded text, used
 * to see camelCase word starts.
 */
export function fuzzyScore(query: string, text: string, original: string = text): number | null {
  const n = query.length
  if (n === 0) return 0
  if (n > text.length) return null
  const lengthPenalty = Math.min(text.length, 200) / 10
  // Contiguous substring: the best kind of match; at the start or a word start better still.
  const at = text.indexOf(query)
  if (at >= 0) {
    const start = at === 0 ? 400 : isBoundary(text[at - 1] ?? ' ') || camelStart(original, at) ? 250 : 0
    return 1000 + start + n * 10 - lengthPenalty - Math.min(at, 100) / 10
  }
  let score = 0
  let ti = 0
  let run = 0
  let last = -1
  for (let qi = 0; qi < n; qi++) {
    const c = query.charCodeAt(qi)
    while (ti < text.length && text.charCodeAt(ti) !== c) ti++
    if (ti >= text.length) return null
    if (ti === 0) score += 30
    else if (isBoundary(text[ti - 1] ?? ' ') || camelStart(original, ti)) score += 20
    if (last === ti - 1) {
      run++
      score += 5 * run
    } else {
      run = 0
      if (last >= 0) score -= Math.min(ti - last - 1, 10)
    }
    last = ti
    ti++
  }
  return score - lengthPenalty
}

/**
 * The letters (a bit each) and digits (six bits, shared) a folded text holds. A text can match a
 * query only if it holds every character of it, so `(query & ~text) !== 0` rules a text out
 * without reading it: most texts, for most keystrokes. Other characters are not counted (and so
 * never rule anything out).
 */
export function charMask(folded: string): number {
  let m = 0
  for (let i = 0; i < folded.length; i++) {
    const c = folded.charCodeAt(i)
    if (c >= 97 && c <= 122) m |= 1 << (c - 97)
    else if (c >= 48 && c <= 57) m |= 1 << (26 + ((c - 48) % 6))
  }
  return m
}

export interface Rankable {
  /** The text matched first (a name or a command's title). */
  text: string
  /** `foldText(text)`, computed once. */
  folded: string
  /** `charMask(folded)`, computed once (without it the text is always read). */
  mask?: number
  /** Optional second text (a description): a match there counts, ranked below name matches. */
  detail?: string
  foldedDetail?: string
  detailMask?: number
}

/** A text (and an optional description) made ready to rank: folded and masked once. */
export function rankable(text: string, detail?: string | null): Rankable {
  const folded = foldText(text)
  if (!detail) return { text, folded, mask: charMask(folded) }
  const foldedDetail = foldText(detail)
  return { text, folded, mask: charMask(folded), detail, foldedDetail, detailMask: charMask(foldedDetail) }
}

/** Whether a text with this mask (if known) may hold every character of the query. */
const mayHold = (queryMask: number, mask: number | undefined): boolean =>
  mask === undefined || (queryMask & ~mask) === 0

export interface Ranked<T> {
  item: T
  score: number
}

/** Folds a typed query: lower case, spaces removed. */
export const foldQuery = (q: string): string => foldText(q).replace(/\s+/g, '')

/**
 * The best `limit` items for `query`, best first (ties keep the input order). One pass over the
 * items; the kept set is a small sorted array, so 30,000 items cost one score each at most (none
 * for an item whose masks rule it out).
 */
export function rank<T extends Rankable>(query: string, items: readonly T[], limit = 50): Ranked<T>[] {
  const q = foldQuery(query)
  if (!q) return items.slice(0, limit).map((item) => ({ item, score: 0 }))
  const qMask = charMask(q)
  const best: Ranked<T>[] = []
  for (const item of items) {
    let score = mayHold(qMask, item.mask) ? fuzzyScore(q, item.folded, item.text) : null
    // A description counts only as a clear match (a substring), ranked below every name match.
    if (score === null && mayHold(qMask, item.detailMask) && item.foldedDetail?.includes(q))
      score = (fuzzyScore(q, item.foldedDetail, item.detail) ?? 0) - 3000
    if (score === null) continue
    if (best.length === limit && score <= (best[limit - 1]?.score ?? -Infinity)) continue
    let i = best.length
    while (i > 0 && (best[i - 1]?.score ?? 0) < score) i--
    best.splice(i, 0, { item, score })
    if (best.length > limit) best.pop()
  }
  return best
}
