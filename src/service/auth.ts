/**
 * Credentials for the embedded service: scrypt password hashes, HMAC-signed expiring session
 * tokens, and random API token values.
 */
import { createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto'

const SCRYPT_R = 8
const SCRYPT_P = 1
const KEY_LEN = 32
/** scrypt N of new hashes: 2^17 (128 MiB, about 0.3 s per hash). Stored hashes keep their own N. */
export const DEFAULT_SCRYPT_COST = 2 ** 17
/** The largest N a stored hash may name (bounds memory: 1 GiB). */
const MAX_STORED_COST = 2 ** 20
/** scrypt runs at a time: each takes 128·N·r bytes, so a burst of sign-ins cannot take all memory. */
const MAX_PARALLEL = 2
let running = 0
const waiting: (() => void)[] = []

async function scryptAsync(password: string, salt: Buffer, n: number): Promise<Buffer> {
  if (running >= MAX_PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve))
  running++
  try {
    return await scryptOnce(password, salt, n)
  } finally {
    running--
    waiting.shift()?.()
  }
}

function scryptOnce(password: string, salt: Buffer, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password,
      salt,
      KEY_LEN,
      { N: n, r: SCRYPT_R, p: SCRYPT_P, maxmem: 256 * n * SCRYPT_R + 1024 * 1024 },
      (err, key) => (err ? reject(err) : resolve(key))
    )
  })
}

/** `scrypt$N$r$p$salt$hash` (base64url parts). */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16)
  const key = await scryptAsync(password, salt, cost)
  return `scrypt$${cost}$${SCRYPT_R}$${SCRYPT_P}$${salt.toString('base64url')}$${key.toString('base64url')}`
}

/** A stored hash that no password matches (Local workspace users never sign in with a password). */
export const UNUSABLE_PASSWORD = '!unusable'

/**
 * Checks a password against a stored hash. Always spends one scrypt computation, also for an
 * unknown user or an unusable hash, so timing does not reveal which e-mails exist.
 */
export async function verifyPassword(
  password: string,
  stored: string | null,
  cost: number
): Promise<boolean> {
  const parts = stored?.split('$') ?? []
  if (parts.length !== 6 || parts[0] !== 'scrypt') {
    await scryptAsync(password, randomBytes(16), cost)
    return false
  }
  const n = Number(parts[1])
  const salt = Buffer.from(parts[4] as string, 'base64url')
  const expected = Buffer.from(parts[5] as string, 'base64url')
  if (!Number.isInteger(n) || n < 2 || n > MAX_STORED_COST || expected.length !== KEY_LEN) return false
  const actual = await scryptAsync(password, salt, n)
  return timingSafeEqual(actual, expected)
}

export function newSecret(): string {
  return randomBytes(32).toString('base64url')
}

export function newApiTokenValue(): string {
  return randomBytes(32).toString('base64url')
}

export interface SessionClaims {
  sub: string
  exp: number // seconds since epoch
  /** The token's own id (what sign-out revokes). */
  jti: string
}

/**
 * Session tokens: `s1.<base64url(json claims)>.<base64url(hmac-sha256)>`. API token values never
 * contain a dot, so the two kinds are told apart by shape.
 */
export class SessionSigner {
  private readonly key: Buffer
  private readonly cache = new Map<string, SessionClaims>()
  private readonly cacheMax = 2048

  constructor(
    secret: string,
    private readonly ttlSeconds: number
  ) {
    this.key = Buffer.from(secret, 'base64url')
  }

  issue(userId: string, nowMs = Date.now()): string {
    const claims: SessionClaims & { iat: number } = {
      sub: userId,
      iat: Math.floor(nowMs / 1000),
      exp: Math.floor(nowMs / 1000) + this.ttlSeconds,
      jti: randomBytes(16).toString('base64url')
    }
    const body = `s1.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`
    const sig = createHmac('sha256', this.key).update(body).digest('base64url')
    return `${body}.${sig}`
  }

  static looksLikeSession(token: string): boolean {
    return token.startsWith('s1.')
  }

  /** The claims of a valid, unexpired token, or null. Verified tokens are kept in a small LRU. */
  verify(token: string, nowMs = Date.now()): SessionClaims | null {
    let claims = this.cache.get(token)
    if (claims === undefined) {
      claims = this.verifySignature(token) ?? undefined
      if (claims === undefined) return null
      if (this.cache.size >= this.cacheMax) {
        const oldest = this.cache.keys().next()
        if (!oldest.done) this.cache.delete(oldest.value)
      }
      this.cache.set(token, claims)
    }
    if (claims.exp * 1000 <= nowMs) {
      this.cache.delete(token)
      return null
    }
    return claims
  }

  private verifySignature(token: string): SessionClaims | null {
    if (token.length > 2048) return null
    const dot = token.lastIndexOf('.')
    if (dot <= 3 || !token.startsWith('s1.')) return null
    const body = token.slice(0, dot)
    // Compare the canonical text, not decoded bytes: base64url ignores the last character's spare
    // bits, so a decoded comparison would accept more than one spelling of the same signature.
    const sig = Buffer.from(token.slice(dot + 1), 'utf8')
    const expected = Buffer.from(createHmac('sha256', this.key).update(body).digest('base64url'), 'utf8')
    if (sig.length !== expected.length || !timingSafeEqual(sig, expected)) return null
    try {
      const parsed: unknown = JSON.parse(Buffer.from(body.slice(3), 'base64url').toString('utf8'))
      if (typeof parsed !== 'object' || parsed === null) return null
      const { sub, exp, jti } = parsed as Record<string, unknown>
      if (typeof sub !== 'string' || typeof exp !== 'number' || typeof jti !== 'string') return null
      return { sub, exp, jti }
    } catch {
      return null
    }
  }
}
