/**
 * Keys that look like a secret, dropped from every draft (no zod here: the renderer's first paint
 * reads it).
 */
/** Keys that look like a secret: dropped from every draft. */
export const SECRET_KEY = /token|password|secret/i

/** `value` without any key that looks like a secret, at any depth. */
export function scrubSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrubSecrets)
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (!SECRET_KEY.test(k)) out[k] = scrubSecrets(v)
    }
    return out
  }
  return value
}
