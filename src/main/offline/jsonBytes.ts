/**
 * A step of a list's rows as SQLite joins them (offline/listRead.ts): one JSON array of UTF-8
 * bytes, made text a part at a time as it leaves main (offline/listText.ts ComingListText).
 */
import * as buffers from 'node:buffer'

/**
 * Items as SQLite joins a step of a list's rows (listRead.ts): `bytes` is one JSON array of them,
 * UTF-8 (`[` item `,` item … `]`), `lengths` each item's bytes, in order.
 */
export interface JsonBytes {
  bytes: Buffer
  lengths: readonly number[]
}

const OPEN = 0x5b // [
const CLOSE = 0x5d // ]

/** Whether `bytes` is a JSON array of items of these `lengths`, as JsonBytes holds them. */
export function isJsonBytes(bytes: Buffer, lengths: readonly number[]): boolean {
  if (lengths.length === 0 || bytes[0] !== OPEN || bytes[bytes.length - 1] !== CLOSE) return false
  let size = 1
  for (const n of lengths) size += n + 1
  return size === bytes.length
}

/** The offset of item `k`'s first byte. */
function startOf(lengths: readonly number[], k: number): number {
  let at = 1
  for (let i = 0; i < k; i++) at += (lengths[i] as number) + 1
  return at
}

/** Each item's text. */
export function textsOf({ bytes, lengths }: JsonBytes): string[] {
  const out = new Array<string>(lengths.length)
  let at = 1
  lengths.forEach((n, k) => {
    out[k] = bytes.toString('utf8', at, at + n)
    at += n + 1
  })
  return out
}

/** ICU's transcoding: none where Node was built without ICU's (Electron, electron/electron#11270). */
const transcode = (buffers as { transcode?: typeof buffers.transcode }).transcode

/**
 * Bytes of JSON as text. ASCII (most JSON) is copied as one-byte text; other text is transcoded to
 * UTF-16 by ICU where there is ICU, and copied as it is: 1.5 ms for the 540 kB of 1,000 agents with
 * a dash in each name, against 2.6 through V8's decoder (`toString('utf8')`, the way without ICU).
 */
function decode(bytes: Buffer, start: number, end: number): string {
  const view = bytes.subarray(start, end)
  if (buffers.isAscii(view)) return view.toString('latin1')
  return transcode ? transcode(view, 'utf8', 'utf16le').toString('utf16le') : view.toString('utf8')
}

/**
 * Bytes `start` to `end` (items and the commas between them) as the text of one JSON array, made in
 * one piece: the byte before them and the byte after (a comma, or the run's own bracket) are its
 * brackets while it is decoded, then what they were. A text joined of pieces (`[${text}]`) is
 * copied whole once more when it leaves main, where its serialisation flattens it: sending 1,000
 * agents took 0.53 ms in flat parts against 0.77 ms in joined ones, decoded in 0.34 against 0.45.
 */
function arrayText(bytes: Buffer, start: number, end: number): string {
  const before = bytes[start - 1] as number
  const after = bytes[end] as number
  bytes[start - 1] = OPEN
  bytes[end] = CLOSE
  try {
    return decode(bytes, start - 1, end + 1)
  } finally {
    bytes[start - 1] = before
    bytes[end] = after
  }
}

/** Items `a` to `b` as JSON arrays of about `partChars` bytes each (ListText.jsonParts). */
export function partsOf({ bytes, lengths }: JsonBytes, a: number, b: number, partChars: number): string[] {
  const parts: string[] = []
  let start = startOf(lengths, a)
  let end = start
  for (let k = a; k < b; k++) {
    end += lengths[k] as number
    if (end - start >= partChars || k === b - 1) {
      parts.push(arrayText(bytes, start, end))
      start = end + 1
    }
    end++
  }
  return parts
}
