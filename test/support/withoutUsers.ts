/**
 * An answer as it leaves main for the page (src/main/ownerless.ts): a list from a server leaves
 * without the owner its items embed, a list read from the cache with it.
 */

/** `value` with every `user` key taken out, deep. */
export function withoutUsers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUsers)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== 'user')
      .map(([k, v]) => [k, withoutUsers(v)])
  )
}
