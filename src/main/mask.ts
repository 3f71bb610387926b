/**
 * Masking the session token out of data: a server (or a proxy) that echoes the request's
 * `Authorization` header in an error must not put the token in a message, a stored outbox row,
 * an IPC answer or an event. Used where server text enters (api/normalize.ts, api/transport.ts)
 * and where answers and events leave main (core.ts).
 */
import { ComingListText, ListText } from './offline/listText'
import { nextTurn } from './turn'

/** What a masked token reads as. */
export const MASK = '••••'

/** Shorter values would mask ordinary words. */
export const MIN_SECRET_LENGTH = 8

function usable(secrets: readonly (string | null | undefined)[]): string[] {
  return secrets.filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH)
}

/** `text` with every occurrence of each secret replaced by the mask. */
export function maskText(text: string, secrets: readonly (string | null | undefined)[]): string {
  let out = text
  for (const s of usable(secrets)) if (out.includes(s)) out = out.split(s).join(MASK)
  return out
}

/** A character JSON may write escaped (a secret holding one could be spelt otherwise). */
const escapable = (c: string) => c === '"' || c === '\\' || c === '/' || c < ' '

/**
 * Whether JSON text could hold a secret once parsed: as it stands, or spelt with escapes (any
 * `\uXXXX`; `\/`, `\"`… for a secret with such characters). False means no string or key parsed
 * from the text holds a secret, so the parsed value need not be walked (a 10,000-item answer).
 */
export function jsonMayHold(text: string, secrets: readonly (string | null | undefined)[]): boolean {
  const list = usable(secrets)
  if (list.length === 0) return false
  if (text.includes('\\u')) return true
  return list.some((s) => [...s].some(escapable) || text.includes(s))
}

/** Bytes searched per step by `bytesMayHold` (~2–4 ms). */
const BYTES_STEP = 8 * 1024 * 1024

/**
 * `jsonMayHold` for JSON as UTF-8 bytes (a large answer, api/largeAnswer.ts; in pieces, as it
 * came), searched a slice at a time with `yieldNow` awaited between slices, without decoding the
 * whole text first. A secret across the edge of two pieces (or of more) is found too.
 */
export async function bytesMayHold(
  body: Buffer | readonly Buffer[],
  secrets: readonly (string | null | undefined)[],
  yieldNow: () => Promise<void> = nextTurn
): Promise<boolean> {
  const list = usable(secrets)
  if (list.length === 0) return false
  if (list.some((s) => [...s].some(escapable))) return true
  const needles = ['\\u', ...list].map((s) => Buffer.from(s, 'utf8'))
  const overlap = Math.max(...needles.map((n) => n.length)) - 1
  const found = (bytes: Buffer) => needles.some((n) => bytes.includes(n))
  // The last `overlap` bytes of the pieces before this one.
  let tail: Buffer = Buffer.alloc(0)
  let slices = 0
  for (const piece of Buffer.isBuffer(body) ? [body] : body) {
    if (tail.length > 0 && found(Buffer.concat([tail, piece.subarray(0, overlap)]))) return true
    for (let at = 0; at < piece.length; at += BYTES_STEP) {
      if (slices++ > 0) await yieldNow()
      if (found(piece.subarray(at, at + BYTES_STEP + overlap))) return true
    }
    tail = (piece.length >= overlap ? piece : Buffer.concat([tail, piece])).subarray(-overlap)
  }
  return false
}

/**
 * Objects known to hold none of the secrets they were checked for: an item parsed from an answer
 * whose text could not hold one (`jsonMayHold` false; api/transport.ts marks it), which a walk
 * need not enter (~5 µs an agent). (A list's items were marked too, when lists were answered as
 * the objects parsed, ~50 ms of walking a 10,000-agent list; lists now reach the page as text,
 * searched as text, and their items are not marked.) The mark is the secrets' text it was
 * checked for, in a property of the object under this symbol, not enumerable: a copy (spread,
 * `Object.assign`, a structured clone for IPC), JSON and `Object.keys` never carry or show it, so
 * an object made from a marked one is walked. (It was a WeakMap: each list of 100,000 items left 100,000 ephemerons for the collector,
 * and its full collections held main ~30–40 ms longer; a property adds no such work.)
 */
const CHECKED = Symbol('checked for secrets')
const secretsKey = (list: readonly string[]) => list.join('\n')

/**
 * Marks the items of `data` (an array's elements, or `data` itself) as holding none of
 * `secrets`: only for data parsed from text that `jsonMayHold` found could hold none.
 */
export function markChecked(data: unknown, secrets: readonly (string | null | undefined)[]): void {
  const list = usable(secrets)
  if (list.length === 0) return
  const key = secretsKey(list)
  for (const item of Array.isArray(data) ? data : [data]) {
    if (typeof item === 'object' && item !== null && Object.isExtensible(item))
      Object.defineProperty(item, CHECKED, { value: key, writable: true, configurable: true })
  }
}

/** An array element the walk need not enter: marked as checked for these secrets (their key). */
const skip = (v: unknown, key: string) =>
  typeof v === 'object' && v !== null && (v as { [CHECKED]?: unknown })[CHECKED] === key

/** Whether `value` was marked as holding none of `secrets` (markChecked). */
export function isChecked(value: unknown, secrets: readonly (string | null | undefined)[]): boolean {
  return skip(value, secretsKey(usable(secrets)))
}

/**
 * Masks strings and keys, deep; `min` is the shortest secret's length (shorter text holds none),
 * `marked` the secrets' key a checked item is marked with.
 */
function maskWith(value: unknown, secrets: readonly string[], min: number, marked: string): unknown {
  if (typeof value === 'string') {
    if (value.length < min) return value
    let out = value
    for (const s of secrets) if (out.includes(s)) out = out.split(s).join(MASK)
    return out
  }
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    let out: unknown[] | null = null
    for (let i = 0; i < value.length; i++) {
      const v = value[i] as unknown
      if (skip(v, marked)) continue
      const m = maskWith(v, secrets, min, marked)
      if (m !== v) (out ??= value.slice())[i] = m
    }
    return out ?? value
  }
  let out: Record<string, unknown> | null = null
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue
    const v = (value as Record<string, unknown>)[key]
    const m = maskWith(v, secrets, min, marked)
    const k = key.length < min ? key : (maskWith(key, secrets, min, marked) as string)
    if (m !== v || k !== key) {
      out ??= { ...(value as Record<string, unknown>) }
      if (k !== key) delete out[key]
      out[k] = m
    }
  }
  return out ?? value
}

/**
 * `value` with every occurrence of the secrets in its strings and keys (deep) masked. Copies only
 * what it changes: the same value comes back when there is nothing to mask.
 */
export function maskSecrets(value: unknown, secrets: readonly (string | null | undefined)[]): unknown {
  const list = usable(secrets)
  return list.length === 0
    ? value
    : maskWith(value, list, Math.min(...list.map((s) => s.length)), secretsKey(list))
}

/** Items of a long list masked per step by `maskSecretsInSteps`. */
export const MASK_STEP = 1000
/** Items of a list held as text searched per step (a search of each text, ~0.2 µs a kB). */
const TEXT_STEP = 10_000

/**
 * `maskSecrets` for answers that may be long: a list (an array, or a read's `data` array) of more
 * than MASK_STEP items is walked MASK_STEP items at a time with the event loop free in between (a
 * 100,000-agent answer held main for ~450 ms in one walk). A read's `data` held as text
 * (offline/listText.ts, each text a cache row as JSON.stringify wrote it) is searched as text:
 * only an item whose JSON holds a secret is parsed and masked. The result is the same as `maskSecrets`, the same value when nothing is masked.
 */
export async function maskSecretsInSteps(
  value: unknown,
  secrets: readonly (string | null | undefined)[],
  yieldNow: () => Promise<void> = nextTurn
): Promise<unknown> {
  const list = usable(secrets)
  if (list.length === 0) return value
  const min = Math.min(...list.map((s) => s.length))
  const marked = secretsKey(list)
  const record =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null
  if (record && record.data instanceof ListText) {
    const data = record.data
    const texts = data.texts
    // Each text is JSON.stringify's (a cache row): a secret in one of its strings or keys reads
    // there as JSON.stringify writes it, so only a text that holds that spelling is parsed.
    const spelt = list.map((secret) => JSON.stringify(secret).slice(1, -1))
    if (data instanceof ComingListText) {
      // Texts still being read are masked as each arrives, before any piece of them can leave.
      data.transform(
        (text) =>
          spelt.some((s) => text.includes(s))
            ? JSON.stringify(maskWith(JSON.parse(text), list, min, marked))
            : text,
        // Rows as SQLite joined them (UTF-8): kept as bytes unless one of them holds a spelling.
        (bytes) => spelt.some((s) => bytes.includes(s))
      )
      return withData(record, null, list, min, marked)
    }
    let out: string[] | null = null
    for (let i = 0; i < texts.length; i++) {
      if (i > 0 && i % TEXT_STEP === 0) await yieldNow()
      const text = texts[i] as string
      if (!spelt.some((s) => text.includes(s))) continue
      const m = JSON.stringify(maskWith(JSON.parse(text), list, min, marked))
      if (m !== text) (out ??= texts.slice())[i] = m
    }
    return withData(record, out && new ListText(out), list, min, marked)
  }
  const items = Array.isArray(value) ? value : record && Array.isArray(record.data) ? record.data : null
  if (!items || items.length <= MASK_STEP) return maskWith(value, list, min, marked)
  let out: unknown[] | null = null
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % MASK_STEP === 0) await yieldNow()
    const v = items[i] as unknown
    if (skip(v, marked)) continue
    const m = maskWith(v, list, min, marked)
    if (m !== v) (out ??= items.slice())[i] = m
  }
  if (!record) return out ?? items
  return withData(record, out, list, min, marked)
}

/**
 * A read whose `data` was masked apart (`data`: its masked copy, null when nothing changed): its
 * other fields masked, and the read itself when nothing changed at all.
 */
function withData(
  record: Record<string, unknown>,
  data: unknown,
  secrets: readonly string[],
  min: number,
  marked: string
): unknown {
  const others: Record<string, unknown> = {}
  for (const key in record) if (key !== 'data' && Object.hasOwn(record, key)) others[key] = record[key]
  const maskedOthers = maskWith(others, secrets, min, marked)
  if (maskedOthers === others && data === null) return record
  return { ...(maskedOthers as Record<string, unknown>), data: data ?? record.data }
}
