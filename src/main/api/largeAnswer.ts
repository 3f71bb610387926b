/**
 * A large answer read in steps. The origin service has no paging (decisions.md: "Client: handles
 * a plain array of any length"), so an account of 100,000 agents comes as one answer of tens of
 * MB, and one `JSON.parse` of it held main for 0.4–0.7 s: every IPC answer waited meanwhile.
 *
 * Here the body's bytes are scanned for where the root's members begin and end and, in an array
 * (the envelope's `data`, or a root array), where its elements do; the elements are parsed a batch
 * at a time (`JSON.parse('[' + the batch's text + ']')`), and the event loop is free between
 * batches. The scan only finds where values end (strings are skipped with `indexOf`; the
 * structural bytes are ASCII, which no byte of a multi-byte UTF-8 character equals): `JSON.parse`
 * reads every value, and the scan checks what lies between them (colons, commas, keys,
 * whitespace). So a body is read as `JSON.parse` reads it, or not at all: anything the scan does
 * not expect gives `null`, and the caller reads the body whole as before (where invalid JSON
 * fails as it always did).
 */
import { createHash } from 'node:crypto'
import { nextTurn } from '../turn'

/** Answers this long or longer are read in steps by the transport. */
export const LARGE_ANSWER_BYTES = 2 * 1024 * 1024
/** A batch of an array's elements ends once its text is this long (~250 agents, ~3 ms)… */
const BATCH_BYTES = 256 * 1024
/** …or holds this many elements. */
const BATCH_ITEMS = 1000
/** Bytes hashed per step (~5 ms). */
const DIGEST_STEP = 2 * 1024 * 1024

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d

/** JSON's whitespace (and only it: `JSON.parse` takes no other). */
const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

/** The scan met something it does not read (the body is then read whole). */
class NotRead extends Error {}

function skipSpace(b: Buffer, i: number): number {
  while (isSpace(b[i])) i++
  return i
}

/** The end (exclusive) of the string whose opening quote is at `i`. */
function stringEnd(b: Buffer, i: number): number {
  let from = i + 1
  for (;;) {
    const q = b.indexOf(QUOTE, from)
    if (q < 0) throw new NotRead()
    let k = q - 1
    while (b[k] === BACKSLASH) k--
    if ((q - 1 - k) % 2 === 0) return q + 1 // not escaped: an even run of backslashes before it
    from = q + 1
  }
}

/** The end (exclusive) of the value that begins at `i` (`JSON.parse` checks the value itself). */
function valueEnd(b: Buffer, i: number): number {
  const c = b[i]
  if (c === QUOTE) return stringEnd(b, i)
  if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
    let depth = 0
    let j = i
    while (j < b.length) {
      const d = b[j] as number
      if (d === QUOTE) {
        j = stringEnd(b, j)
        continue
      }
      if (d === OPEN_ARRAY || d === OPEN_OBJECT) depth++
      else if ((d === CLOSE_ARRAY || d === CLOSE_OBJECT) && --depth === 0) return j + 1
      j++
    }
    throw new NotRead()
  }
  // A number, true, false or null: up to the next delimiter.
  let j = i
  while (j < b.length) {
    const d = b[j]
    if (d === COMMA || d === CLOSE_ARRAY || d === CLOSE_OBJECT || isSpace(d)) break
    j++
  }
  if (j === i) throw new NotRead()
  return j
}

function parseSlice(b: Buffer, from: number, to: number): unknown {
  try {
    return JSON.parse(b.toString('utf8', from, to)) as unknown
  } catch {
    throw new NotRead()
  }
}

interface Read {
  value: unknown
  end: number
}

interface Steps {
  yieldNow: () => Promise<void>
  batchBytes: number
}

/** The array that begins at `i`, its elements parsed a batch at a time. */
async function readArray(b: Buffer, i: number, steps: Steps): Promise<Read> {
  const items: unknown[] = []
  i = skipSpace(b, i + 1)
  if (b[i] === CLOSE_ARRAY) return { value: items, end: i + 1 }
  for (;;) {
    const start = i
    let end = i
    let count = 0
    let last = false
    for (;;) {
      end = valueEnd(b, i)
      count++
      i = skipSpace(b, end)
      if (b[i] === CLOSE_ARRAY) {
        last = true
        break
      }
      if (b[i] !== COMMA) throw new NotRead()
      i = skipSpace(b, i + 1)
      if (end - start >= steps.batchBytes || count >= BATCH_ITEMS) break
    }
    let batch: unknown
    try {
      batch = JSON.parse(`[${b.toString('utf8', start, end)}]`)
    } catch {
      throw new NotRead()
    }
    for (const item of batch as unknown[]) items.push(item)
    if (last) return { value: items, end: i + 1 }
    await steps.yieldNow()
  }
}

/** The object that begins at `i`: its keys and small values parsed at once, an array in steps. */
async function readObject(b: Buffer, i: number, steps: Steps): Promise<Read> {
  const out: Record<string, unknown> = {}
  i = skipSpace(b, i + 1)
  if (b[i] === CLOSE_OBJECT) return { value: out, end: i + 1 }
  for (;;) {
    if (b[i] !== QUOTE) throw new NotRead()
    const keyEnd = stringEnd(b, i)
    const key = parseSlice(b, i, keyEnd) as string
    i = skipSpace(b, keyEnd)
    if (b[i] !== COLON) throw new NotRead()
    i = skipSpace(b, i + 1)
    let value: unknown
    if (b[i] === OPEN_ARRAY) {
      const read = await readArray(b, i, steps)
      value = read.value
      i = read.end
    } else {
      const end = valueEnd(b, i)
      value = parseSlice(b, i, end)
      i = end
    }
    // As JSON.parse makes it: an own data property, also for "__proto__"; a later key wins.
    Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true })
    i = skipSpace(b, i)
    if (b[i] === CLOSE_OBJECT) return { value: out, end: i + 1 }
    if (b[i] !== COMMA) throw new NotRead()
    i = skipSpace(b, i + 1)
  }
}

/**
 * The JSON value of `body` (UTF-8, a byte-order mark allowed), read in steps with `yieldNow`
 * awaited between them (an array's elements in batches of about `batchBytes`); `undefined` when the body is not an object or an array the steps read
 * (not JSON, JSON with text around it, a root of another type): read it whole then.
 */
export async function parseJsonInSteps(
  body: Buffer,
  yieldNow: () => Promise<void> = nextTurn,
  batchBytes = BATCH_BYTES
): Promise<{ value: unknown } | undefined> {
  const steps = { yieldNow, batchBytes }
  let i = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0
  i = skipSpace(body, i)
  try {
    let read: Read
    if (body[i] === OPEN_OBJECT) read = await readObject(body, i, steps)
    else if (body[i] === OPEN_ARRAY) read = await readArray(body, i, steps)
    else return undefined
    return skipSpace(body, read.end) === body.length ? { value: read.value } : undefined
  } catch (e) {
    if (e instanceof NotRead) return undefined
    throw e
  }
}

/** `digestOf` (answerDigest.ts) in steps of DIGEST_STEP bytes, with `yieldNow` between them. */
export async function digestInSteps(
  body: Uint8Array,
  yieldNow: () => Promise<void> = nextTurn
): Promise<string> {
  const hash = createHash('sha256')
  for (let at = 0; at < body.length; at += DIGEST_STEP) {
    if (at > 0) await yieldNow()
    hash.update(body.subarray(at, at + DIGEST_STEP))
  }
  return hash.digest('base64')
}
