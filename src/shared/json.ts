/**
 * Limits of the free-form JSON values the app takes (a tool's `metadata`, a document's
 * `authorization`, `splitter`, `metadata`): plain JSON data only, at most 32 levels deep and about
 * 256 KiB serialised. Checked without recursion, so a 50,000-deep value costs no stack.
 */
export const JSON_MAX_DEPTH = 32
export const JSON_MAX_BYTES = 256 * 1024

/** Why `value` is not plain JSON data within the limits, or null when it is. */
export function jsonProblem(
  value: unknown,
  maxDepth = JSON_MAX_DEPTH,
  maxBytes = JSON_MAX_BYTES
): string | null {
  const notJson = 'Only JSON values (text, numbers, true/false, null, lists and objects)'
  const stack: [unknown, number][] = [[value, 0]]
  let bytes = 0
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number]
    if (v === null || v === undefined || typeof v === 'boolean') bytes += 5
    else if (typeof v === 'number') {
      if (!Number.isFinite(v)) return notJson
      bytes += 24
    } else if (typeof v === 'string') bytes += v.length + 2
    else if (typeof v !== 'object') return notJson
    else {
      if (depth >= maxDepth) return `At most ${maxDepth} levels deep`
      if (Array.isArray(v)) {
        bytes += 2 + v.length
        for (const item of v as unknown[]) stack.push([item, depth + 1])
      } else {
        const proto = Object.getPrototypeOf(v) as unknown
        if (proto !== Object.prototype && proto !== null) return notJson
        bytes += 2
        for (const [k, item] of Object.entries(v)) {
          bytes += k.length + 4
          stack.push([item, depth + 1])
        }
      }
    }
    if (bytes > maxBytes) return `At most ${Math.round(maxBytes / 1024)} KiB`
  }
  return null
}
