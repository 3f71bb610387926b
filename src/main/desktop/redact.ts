/**
 * Scrubs secrets from what is logged: `Bearer …`/`Basic …` values, anything shaped like a JWT,
 * `token=`/`password=`… in URLs and text, fields named like a password, token, authorization,
 * secret, cookie or API key in objects (deep), and the live session tokens the app registers
 * (`registerSecret`), wherever they appear.
 */
export const REDACTED = '[redacted]'

/** The session tokens in use (and a few before them): each is scrubbed wherever it appears. */
const secrets = new Set<string>()
const MAX_SECRETS = 64
/** Shorter values would scrub ordinary words. */
const MIN_SECRET_LENGTH = 8

export function registerSecret(value: string | null | undefined): void {
  if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH || secrets.has(value)) return
  secrets.add(value)
  if (secrets.size > MAX_SECRETS) secrets.delete(secrets.values().next().value as string)
}

/** For tests: forget every registered secret. */
export function clearSecrets(): void {
  secrets.clear()
}

// Every pattern starts at a fixed place (a word start, a delimiter) and has bounded repeats, so a
// long line costs linear time (no backtracking blow-up on 100 kB of letters).
const WORDS = String.raw`pass(?:word|wd|phrase)?|token|secret|authori[sz]ation|api[_-]?key|cookie|credential|session[_-]?id`
const KEY = String.raw`(?<![\w.-])[\w.-]{0,32}?(?:${WORDS})[\w.-]{0,32}(?![\w.-])`
const SENSITIVE_KEY = new RegExp(String.raw`^(?:[\w.-]{0,32}?(?:${WORDS})[\w.-]{0,32}|pwd|auth)$`, 'i')
const AUTH_SCHEME = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]+/gi
const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g
/** `token=…` in a query string, a form body or a cookie header. */
const PARAM = new RegExp(String.raw`(^|[?&;\s])(${KEY}|pwd|auth)=([^&#;\s"'<>]+)`, 'gi')
/** `"password": "…"`, `token: …`, `Authorization: …` in text (JSON, headers, messages). */
const PAIR = new RegExp(
  String.raw`((?:"|')?${KEY}(?:"|')?\s*:\s*)("(?:[^"\\]|\\.)*"|'[^']*'|[^\s,;}&]+)`,
  'gi'
)

export function isSensitiveKey(key: string): boolean {
  return key.length <= 128 && SENSITIVE_KEY.test(key)
}

export function redactText(text: string): string {
  let out = text
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(REDACTED)
  out = out.replace(AUTH_SCHEME, (_m, scheme: string) => `${scheme} ${REDACTED}`)
  out = out.replace(JWT, REDACTED)
  out = out.replace(PARAM, (_m, pre: string, key: string) => `${pre}${key}=${REDACTED}`)
  out = out.replace(PAIR, (_m, pre: string, value: string) =>
    value.startsWith(REDACTED) || value.startsWith(`"${REDACTED}`) ? `${pre}${value}` : `${pre}"${REDACTED}"`
  )
  return out
}

function errorText(e: Error, seen: WeakSet<object>, depth: number): string {
  let text = e.stack && e.stack.includes(e.message) ? e.stack : `${e.name}: ${e.message}\n${e.stack ?? ''}`
  const cause = (e as { cause?: unknown }).cause
  if (cause !== undefined && depth < 5) {
    const c = redactValue(cause, seen, depth + 1)
    text += `\nCaused by: ${typeof c === 'string' ? c : JSON.stringify(c)}`
  }
  return redactText(text)
}

/**
 * A copy of `value` safe to log: strings scrubbed, errors turned into their scrubbed stack (with
 * the cause), sensitive fields masked at any depth. Cycles and great depths are cut short.
 */
export function redactValue(value: unknown, seen: WeakSet<object> = new WeakSet(), depth = 0): unknown {
  if (typeof value === 'string') return redactText(value)
  if (typeof value !== 'object' || value === null) {
    return typeof value === 'function' ? `[function ${value.name || 'anonymous'}]` : value
  }
  if (seen.has(value)) return '[circular]'
  if (depth > 10) return '[…]'
  seen.add(value)
  if (value instanceof Error) return errorText(value, seen, depth)
  if (value instanceof Date) return value
  if (value instanceof URL) return redactText(value.href)
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return '[binary]'
  if (Array.isArray(value)) return value.map((v) => redactValue(v, seen, depth + 1))
  if (value instanceof Set) return [...value].map((v) => redactValue(v, seen, depth + 1))
  const entries: [string, unknown][] =
    value instanceof Map ? [...value].map(([k, v]) => [String(k), v]) : Object.entries(value)
  const out: Record<string, unknown> = {}
  for (const [k, v] of entries) {
    out[redactText(k)] =
      isSensitiveKey(k) && v !== null && v !== undefined ? REDACTED : redactValue(v, seen, depth + 1)
  }
  return out
}
