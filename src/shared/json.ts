/**
 * Limits of the free-form JSON values the app takes (a tool's `metadata`, a document's
 * `authorization`, `splitter`, `metadata`): plain JSON data only, at most 32 levels deep and about
 * 256 KiB serialised. Checked without recursion and without serialising, stopping as soon as a
 * limit is passed, so a 20 MiB or 50,000-level value costs next to nothing to refuse.
 */
export const JSON_MAX_DEPTH = 32
export const JSON_MAX_BYTES = 256 * 1024

/** What is wrong with a value as bounded JSON: not plain JSON data, too deep, or too large. */
export type JsonFault = 'notJson' | 'deep' | 'large'

/** The first fault found in `value` (a top-level object is one level), or null. */
export function jsonFault(value: unknown, maxDepth: number, maxBytes: number): JsonFault | null {
  const stack: [unknown, number][] = [[value, 0]]
  let bytes = 0
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number]
    if (v === null || v === undefined || typeof v === 'boolean') bytes += 5
    else if (typeof v === 'number') {
      if (!Number.isFinite(v)) return 'notJson'
      bytes += 24
    } else if (typeof v === 'string') bytes += v.length + 2
    else if (typeof v !== 'object') return 'notJson'
    else {
      if (depth >= maxDepth) return 'deep'
      if (Array.isArray(v)) {
        bytes += 2 + v.length
        for (const item of v as unknown[]) stack.push([item, depth + 1])
      } else {
        const proto = Object.getPrototypeOf(v) as unknown
        if (proto !== Object.prototype && proto !== null) return 'notJson'
        bytes += 2
        for (const [k, item] of Object.entries(v)) {
          bytes += k.length + 4
          stack.push([item, depth + 1])
        }
      }
    }
    if (bytes > maxBytes) return 'large'
  }
  return null
}

export function sizeText(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MiB` : `${Math.round(n / 1024)} KiB`
}

/** Why `value` is not plain JSON data within the limits, in words, or null when it is. */
export function jsonProblem(
  value: unknown,
  maxDepth = JSON_MAX_DEPTH,
  maxBytes = JSON_MAX_BYTES
): string | null {
  const fault = jsonFault(value, maxDepth, maxBytes)
  if (fault === 'notJson') return 'Only JSON values (text, numbers, true/false, null, lists and objects)'
  if (fault === 'deep') return `Nested too deeply: at most ${maxDepth} levels`
  if (fault === 'large') return `Too large: at most ${sizeText(maxBytes)}`
  return null
}
