/**
 * The contract's plain values and helpers, with no zod: enum values, the tag colour rule, the
 * token mask. The resource modules re-export them (one definition); the renderer's eagerly loaded
 * code imports them from here so that zod loads only with the forms that validate.
 */

export const DOCUMENT_TYPES = ['TXT', 'PDF', 'VIDEO', 'CSV', 'URL'] as const
export const AGENT_TYPES = ['CHATVENDOR', 'REACT'] as const
export const TOOL_TYPES = [
  'SEARCH',
  'MATHENGINE_ALPHA',
  'MODELHOST',
  'AUTOMATION_NLA',
  'AGENT',
  'OPENAPI'
] as const

export const DEFAULT_TAG_COLOR = '#0E8A16'
const COLOR_RE = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/

/** `#abc` → `#AABBCC`, `#a1b2c3` → `#A1B2C3`; anything else → null. */
export function normalizeColor(input: string): string | null {
  const value = input.trim()
  if (!COLOR_RE.test(value)) return null
  const hex = value.slice(1)
  const full =
    hex.length === 3
      ? hex
          .split('')
          .map((c) => c + c)
          .join('')
      : hex
  return `#${full.toUpperCase()}`
}

/**
 * A colour as a server answered it, in the one form the app shows and compares (main's tolerant
 * Tag schema and the renderer both use this): `#RRGGBB` upper case, so `#aabbcc` and `#abc` are
 * `#AABBCC`; anything else is kept as it came.
 */
export function canonicalColor(value: string): string {
  return normalizeColor(value) ?? value
}

/** What the app shows of an API-token value: `abcd••••wxyz` (never the whole value). */
export function maskToken(token: string | undefined | null): string | null {
  if (!token) return null
  if (token.length <= 8) return '••••'
  return `${token.slice(0, 4)}••••${token.slice(-4)}`
}
