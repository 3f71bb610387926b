/**
 * Merging a (possibly partial) server answer onto what the cache already knows, and the
 * defence-in-depth scrub that keeps API-token values out of the cache file.
 */
import { maskToken } from '../../shared/apiToken'

export type JsonRecord = Record<string, unknown>

export function isPlainObject(v: unknown): v is JsonRecord {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false
  const proto = Object.getPrototypeOf(v) as unknown
  return proto === Object.prototype || proto === null
}

/** Throws for an item the cache cannot keep: a plain object with a non-empty string id. */
export function checkItem(item: unknown): asserts item is JsonRecord & { id: string } {
  if (!isPlainObject(item)) throw new TypeError('A cached item must be a plain object')
  if (typeof item.id !== 'string' || item.id === '')
    throw new TypeError('A cached item needs a non-empty string id')
}

/**
 * Merges `next` onto `prev`.
 * - Top level: a field that is missing or `undefined` in `next` keeps the cached value
 *   (a partial answer never blanks what we know). `null` is a real value and replaces.
 * - Nested plain objects (e.g. `llm`): the new object replaces the old one (so a key removed from
 *   `metadata` really goes), except that keys explicitly set to `undefined` in the new object —
 *   the tolerant schemas' "unknown" — keep the cached nested value.
 * - Arrays always replace.
 * The result never contains `undefined` values.
 */
export function mergeItem(prev: JsonRecord | null, next: JsonRecord): JsonRecord {
  const out: JsonRecord = prev ? { ...prev } : {}
  for (const [key, value] of Object.entries(next)) {
    if (value === undefined) continue
    out[key] = mergeNested(prev ? prev[key] : undefined, value)
  }
  return out
}

function mergeNested(prev: unknown, next: unknown): unknown {
  if (!isPlainObject(next)) return next
  const out: JsonRecord = {}
  const old = isPlainObject(prev) ? prev : null
  for (const [key, value] of Object.entries(next)) {
    if (value === undefined) {
      if (old && old[key] !== undefined) out[key] = old[key]
      continue
    }
    out[key] = mergeNested(old ? old[key] : undefined, value)
  }
  return out
}

/**
 * The cache never holds an API-token value: `token` is dropped from 'apiTokens' items, and a
 * masked `tokenPreview` is kept (or derived from the value when none was given).
 */
export function scrub(resource: string, item: JsonRecord): JsonRecord {
  if (resource !== 'apiTokens' || !('token' in item)) return item
  const { token, ...rest } = item
  if (rest.tokenPreview === undefined && typeof token === 'string' && token) {
    rest.tokenPreview = maskToken(token)
  }
  return rest
}

/** Replaces every string value equal to `from` by `to`, deep. Returns the same value when nothing changed. */
export function replaceString(value: unknown, from: string, to: string): unknown {
  if (typeof value === 'string') return value === from ? to : value
  if (Array.isArray(value)) {
    let changed = false
    const out = value.map((v) => {
      const r = replaceString(v, from, to)
      if (r !== v) changed = true
      return r
    })
    return changed ? out : value
  }
  if (isPlainObject(value)) {
    let changed = false
    const out: JsonRecord = {}
    for (const [k, v] of Object.entries(value)) {
      const r = replaceString(v, from, to)
      if (r !== v) changed = true
      out[k] = r
    }
    return changed ? out : value
  }
  return value
}

/** True when `value` contains a string equal to one of `needles`, deep. */
export function containsString(value: unknown, needles: ReadonlySet<string>): boolean {
  if (needles.size === 0) return false
  if (typeof value === 'string') return needles.has(value)
  if (Array.isArray(value)) return value.some((v) => containsString(v, needles))
  if (isPlainObject(value)) return Object.values(value).some((v) => containsString(v, needles))
  return false
}

/** Every string value in `value` (deep) that starts with `prefix`. */
export function stringsWithPrefix(value: unknown, prefix: string, out: Set<string> = new Set()): Set<string> {
  if (typeof value === 'string') {
    if (value.startsWith(prefix)) out.add(value)
  } else if (Array.isArray(value)) {
    for (const v of value) stringsWithPrefix(v, prefix, out)
  } else if (isPlainObject(value)) {
    for (const v of Object.values(value)) stringsWithPrefix(v, prefix, out)
  }
  return out
}
