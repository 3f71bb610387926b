/**
 * The command palette's fuzzy matcher, written once: the palette filters with it and the benchmark
 * measures it against a plain loop over the same names.
 *
 * A query matches a text when its characters appear in the text in order (case-insensitive;
 * spaces in the query are ignored). The score rewards what people mean when they type a few
 * letters: a match at the start of the text, at the start of words ("dh" → "Document handbook"),
 * and runs of consecutive characters; it penalises gaps and long texts a little, so that among
 * equal matches the shorter name wins.
 *
 * What is ranked at each keystroke is an index (`rankIndex`): the texts one after another in one
 * string, as main sends them (`palette.items`), folded once, with their masks in one array. A
 * keystroke then reads memory in order, not 300,000 objects and strings wherever they lie (the time
 * a name took grew 2× from 30,000 names to 300,000 as they outgrew the processor's caches).
 */

/** The lower-case form a text is matched against. */
export const foldText = (s: string): string => s.toLowerCase()

/** A character (its code) after which a word starts: space - _ . / ( : */
const isBoundary = (c: number): boolean =>
  c === 32 || c === 45 || c === 95 || c === 46 || c === 47 || c === 40 || c === 58

/**
 * A lower-case letter before an upper-case one at `i` of a text that lies from `os` to `oe` of
 * `original`: a camelCase word start (none past the text's end: a folded text can be longer than
 * its original).
 */
function camelStart(original: string, os: number, oe: number, i: number): boolean {
  if (i < 1 || os + i >= oe) return false
  const c = original.charCodeAt(os + i)
  const p = original.charCodeAt(os + i - 1)
  return c >= 65 && c <= 90 && p >= 97 && p <= 122
}

/**
 * The score of `text` for `query` (both already folded with `foldText`; the query without
 * spaces), or null when it does not match. Higher is better. Scores are whole numbers, so a
 * keystroke over 300,000 names allocates none (a fraction would be a heap number each).
 * `original` is the unfolded text, used to see camelCase word starts.
 */
export function fuzzyScore(query: string, text: string, original: string = text): number | null {
  if (query.length === 0) return 0
  if (query.length > text.length) return null
  return scoreIn(query, text, 0, text.length, original, 0, original.length, text.indexOf(query))
}

/**
 * `fuzzyScore` of the text from `s` to `e` of `folded` (at least as long as the query), whose
 * original lies from `os` to `oe` of `original`, where the query was found first as a substring
 * at `found` from `s` (-1: nowhere).
 */
function scoreIn(
  query: string,
  folded: string,
  s: number,
  e: number,
  original: string,
  os: number,
  oe: number,
  found: number
): number | null {
  const n = query.length
  const lengthPenalty = Math.min(e - s, 200)
  // Contiguous substring: the best kind of match; at the start or a word start better still.
  if (found >= 0) {
    const wordStart = isBoundary(folded.charCodeAt(s + found - 1)) || camelStart(original, os, oe, found)
    const start = found === 0 ? 4000 : wordStart ? 2500 : 0
    return 10000 + start + n * 100 - lengthPenalty - Math.min(found, 100)
  }
  let score = 0
  let ti = s
  let run = 0
  let last = s - 1 // (a first match at the text's start counts as a run)
  for (let qi = 0; qi < n; qi++) {
    const c = query.charCodeAt(qi)
    while (ti < e && folded.charCodeAt(ti) !== c) ti++
    if (ti >= e) return null
    if (ti === s) score += 300
    else if (isBoundary(folded.charCodeAt(ti - 1)) || camelStart(original, os, oe, ti - s)) score += 200
    if (last === ti - 1) {
      run++
      score += 50 * run
    } else {
      run = 0
      if (last >= s) score -= 10 * Math.min(ti - last - 1, 10)
    }
    last = ti
    ti++
  }
  return score - lengthPenalty
}

/** The mask (`charMask`) of the text from `s` to `e` of `folded`. */
function maskOf(folded: string, s: number, e: number): number {
  let m = 0
  for (let i = s; i < e; i++) {
    const c = folded.charCodeAt(i)
    if (c >= 97 && c <= 122) m |= 1 << (c - 97)
    else if (c >= 48 && c <= 57) m |= 1 << (26 + ((c - 48) % 6))
  }
  return m
}

/**
 * The letters (a bit each) and digits (six bits, shared) a folded text holds. A text can match a
 * query only if it holds every character of it, so `(query & ~text) !== 0` rules a text out
 * without reading it: most texts, for most keystrokes. Other characters are not counted (and so
 * never rule anything out).
 */
export const charMask = (folded: string): number => maskOf(folded, 0, folded.length)

/** Texts one after another in one string: the i-th is `lengths[i]` long (an empty one: none). */
export interface Texts {
  all: string
  lengths: readonly number[]
}

/** Texts (a missing one as empty) joined as `Texts`. */
export function joinTexts(texts: readonly (string | null | undefined)[]): Texts {
  return { all: texts.join(''), lengths: texts.map((t) => t?.length ?? 0) }
}

/** Where each text starts in a string of them all, and where the last ends. */
function startsOf(lengths: readonly number[]): Int32Array {
  const starts = new Int32Array(lengths.length + 1)
  let at = 0
  for (let i = 0; i < lengths.length; i++) {
    starts[i] = at
    at += lengths[i] ?? 0
  }
  starts[lengths.length] = at
  return starts
}

/** One column of an index: the texts as given and folded, each with its starts, and their masks. */
interface Column {
  original: string
  originalStarts: Int32Array
  folded: string
  starts: Int32Array
  masks: Int32Array
}

function column(texts: Texts, size: number): Column {
  if (texts.lengths.length !== size) throw new Error('rankIndex: the names and details differ in number')
  const original = texts.all
  const originalStarts = startsOf(texts.lengths)
  if (originalStarts[size] !== original.length) throw new Error('rankIndex: the lengths do not add up')
  let folded = foldText(original)
  let starts = originalStarts
  // Folded all at once, the texts keep their places, unless folding lengthened one (İ) or a Σ
  // folds by what follows it (σ, or ς at a word's end): then each is folded on its own.
  if (folded.length !== original.length || original.includes('Σ')) {
    const parts = Array.from({ length: size }, (_, i) =>
      foldText(original.slice(originalStarts[i], originalStarts[i + 1]))
    )
    folded = parts.join('')
    starts = startsOf(parts.map((p) => p.length))
  }
  const masks = new Int32Array(size)
  for (let i = 0; i < size; i++) masks[i] = maskOf(folded, starts[i] as number, starts[i + 1] as number)
  return { original, originalStarts, folded, starts, masks }
}

/** Texts made ready to rank at each keystroke: their names and (optional) details. */
export interface RankIndex {
  readonly size: number
  readonly names: Column
  readonly details: Column
}

/** An index of `names`, each with its detail (a description) if `details` are given. */
export function rankIndex(names: Texts, details?: Texts): RankIndex {
  const size = names.lengths.length
  return {
    size,
    names: column(names, size),
    details: column(details ?? { all: '', lengths: new Array<number>(size).fill(0) }, size)
  }
}

/** The i-th name of an index, and its detail (null: none), as given. */
export function textsAt(index: RankIndex, i: number): { text: string; detail: string | null } {
  const at = (c: Column) => c.original.slice(c.originalStarts[i], c.originalStarts[i + 1])
  return { text: at(index.names), detail: at(index.details) || null }
}

export interface Ranked {
  /** The text's place in the index. */
  index: number
  score: number
}

/** Folds a typed query: lower case, spaces removed. */
export const foldQuery = (q: string): string => foldText(q).replace(/\s+/g, '')

/**
 * Where `q` lies first in each text of a column (-1: not in it), asked for texts in order: one
 * search of all of them, moving on from match to match.
 */
function firstPlaces(folded: string, q: string): (s: number, e: number) => number {
  // The first place at or after the last text asked's start: -2 not looked for yet, -1 nowhere.
  let next = -2
  return (s, e) => {
    if (next !== -1 && next < s) next = folded.indexOf(q, s)
    return next !== -1 && next <= e - q.length ? next - s : -1
  }
}

/**
 * The best `limit` texts of the index for `query`, best first (ties keep the index's order). One
 * pass over the index; the kept set is a small sorted array, so 30,000 texts cost one score each
 * at most (none for a text whose masks rule it out). Where the query lies as a substring is found
 * by searching all the texts at once, from one match on to the next. A detail counts only as a
 * clear match (a substring), ranked below every name match.
 */
export function rank(query: string, index: RankIndex, limit = 50): Ranked[] {
  const q = foldQuery(query)
  const { size, names, details } = index
  if (!q) return Array.from({ length: Math.min(limit, size) }, (_, i) => ({ index: i, score: 0 }))
  const n = q.length
  const qMask = charMask(q)
  const inName = firstPlaces(names.folded, q)
  const inDetail = firstPlaces(details.folded, q)
  const best: Ranked[] = []
  for (let i = 0; i < size; i++) {
    let score: number | null = null
    const s = names.starts[i] as number
    const e = names.starts[i + 1] as number
    if ((qMask & ~(names.masks[i] as number)) === 0 && n <= e - s) {
      const os = names.originalStarts[i] as number
      const oe = names.originalStarts[i + 1] as number
      score = scoreIn(q, names.folded, s, e, names.original, os, oe, inName(s, e))
    }
    const ds = details.starts[i] as number
    const de = details.starts[i + 1] as number
    if (score === null && (qMask & ~(details.masks[i] as number)) === 0 && n <= de - ds) {
      const found = inDetail(ds, de)
      const os = details.originalStarts[i] as number
      const oe = details.originalStarts[i + 1] as number
      if (found >= 0)
        score = (scoreIn(q, details.folded, ds, de, details.original, os, oe, found) ?? 0) - 30000
    }
    if (score === null) continue
    if (best.length === limit && score <= (best[limit - 1]?.score ?? -Infinity)) continue
    let k = best.length
    while (k > 0 && (best[k - 1]?.score ?? 0) < score) k--
    best.splice(k, 0, { index: i, score })
    if (best.length > limit) best.pop()
  }
  return best
}
