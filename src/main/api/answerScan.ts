/**
 * The scan of a JSON answer's bytes that finds where its values end (largeAnswer.ts): strings are
 * skipped to their closing quote, arrays and objects to their closing bracket; `JSON.parse` reads
 * the values themselves. The structural bytes are ASCII, which no byte of a multi-byte UTF-8
 * character equals.
 */
import { byteAt, indexOfByte, segOf, type Source } from './answerBytes'

export const QUOTE = 0x22
const BACKSLASH = 0x5c
export const COMMA = 0x2c
export const COLON = 0x3a
export const OPEN_ARRAY = 0x5b
export const CLOSE_ARRAY = 0x5d
export const OPEN_OBJECT = 0x7b
export const CLOSE_OBJECT = 0x7d
/** What `peek` gives past the end of a whole body. */
export const END = -1

/** JSON's whitespace (and only it: `JSON.parse` takes no other). */
const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

/** The scan met something it does not read (the body is then read whole). */
export class NotRead extends Error {}
/** The scan reached bytes that have not come yet (thrown, not an error: waited for, then again). */
export const NEED_MORE = Symbol('more bytes')

/** The byte at `i`; END past a whole body's end; NEED_MORE thrown past what has come. */
export function peek(s: Source, i: number): number {
  if (i < s.avail) return byteAt(s, i)
  if (s.done) return END
  throw NEED_MORE
}

const ranOut = (s: Source) => (s.done ? new NotRead() : NEED_MORE)

export function skipSpace(s: Source, i: number): number {
  while (isSpace(peek(s, i))) i++
  return i
}

/** The end (exclusive) of the string whose opening quote is at `i`. */
export function stringEnd(s: Source, i: number): number {
  let from = i + 1
  for (;;) {
    const q = indexOfByte(s, QUOTE, from)
    if (q < 0) throw ranOut(s)
    let k = q - 1
    while (byteAt(s, k) === BACKSLASH) k--
    if ((q - 1 - k) % 2 === 0) return q + 1 // not escaped: an even run of backslashes before it
    from = q + 1
  }
}

/** The end (exclusive) of the value that begins at `i` (`JSON.parse` checks the value itself). */
export function valueEnd(s: Source, i: number): number {
  const c = peek(s, i)
  if (c === QUOTE) return stringEnd(s, i)
  if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
    let depth = 0
    let j = i
    // A segment at a time (from where `j` is, again after each string).
    segments: while (j < s.avail) {
      const k = segOf(s, j)
      const seg = s.segs[k] as Buffer
      const base = s.starts[k] as number
      const stop = base + seg.length
      for (; j < stop; j++) {
        const d = seg[j - base] as number
        if (d === QUOTE) {
          // A string that ends in this segment is skipped here (most are a few bytes: a call to
          // search for its end cost more than reading it); one that goes on past it, by stringEnd.
          let m = j - base + 1
          for (const lim = stop - base; m < lim; m++) {
            const e = seg[m] as number
            if (e === QUOTE) break
            if (e === BACKSLASH) m++
          }
          if (m < stop - base) {
            j = base + m
            continue
          }
          j = stringEnd(s, j)
          continue segments
        }
        if (d === OPEN_ARRAY || d === OPEN_OBJECT) depth++
        else if ((d === CLOSE_ARRAY || d === CLOSE_OBJECT) && --depth === 0) return j + 1
      }
    }
    throw ranOut(s)
  }
  // A number, true, false or null: up to the next delimiter.
  let j = i
  for (;;) {
    const d = j < s.avail ? byteAt(s, j) : s.done ? END : undefined
    if (d === undefined) throw NEED_MORE // it may go on in the bytes to come
    if (d === END || d === COMMA || d === CLOSE_ARRAY || d === CLOSE_OBJECT || isSpace(d)) break
    j++
  }
  if (j === i) throw new NotRead()
  return j
}
