/**
 * The embedded Agent Management Service: a node:http server over SQLite (libsql), serving
 * service-api.md under `/api/v1` plus the extra operations settled in decisions.md.
 */
import { mkdirSync } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import { join } from 'node:path'
import type { UserStrict } from '../shared'
import {
  DEFAULT_SCRYPT_COST,
  hashPassword,
  newSecret,
  SessionSigner,
  UNUSABLE_PASSWORD,
  verifyPassword
} from './auth'
import { openDatabase } from './db'
import { unauthorized } from './http'
import { MIGRATIONS, openStorage, routeTables } from './resources'
import { publicUser, type AuthOps } from './resources/users'
import { buildRouter } from './routes'
import { listen } from './server'

export interface ServiceOptions {
  /** Default 127.0.0.1. */
  host?: string
  /** 0 (default) picks a free port. */
  port?: number
  /** Directory holding the database and the signing secret; created if missing. */
  dataDir: string
  /** Lifetime of session tokens; default 30 days. */
  tokenTtlSeconds?: number
  /** Largest accepted request body; default 1 MiB. */
  maxBodyBytes?: number
  /** scrypt N (power of two); default 16384. Tests use a low value. */
  scryptCost?: number
  /** Receives log lines (start-up, unexpected errors). Default: stderr for errors only. */
  logger?: (line: string) => void
  /** How long a write waits for a lock held by another connection to the same file; default 5000 ms. */
  busyTimeoutMs?: number
}

export interface RunningService {
  /** e.g. http://127.0.0.1:43121 (without /api/v1). */
  url: string
  port: number
  close(): Promise<void>
  /**
   * In-process: creates the user if missing (no password needed, random unusable password) and
   * issues a session token. Used by the Local workspace.
   */
  localSession(input: { email: string; name: string }): Promise<{ token: string; user: UserStrict }>
}

export const API_PREFIX = '/api/v1'
const DAY = 24 * 60 * 60

export async function startService(opts: ServiceOptions): Promise<RunningService> {
  const host = opts.host ?? '127.0.0.1'
  const maxBody = opts.maxBodyBytes ?? 1024 * 1024
  const cost = opts.scryptCost ?? DEFAULT_SCRYPT_COST
  const ttl = opts.tokenTtlSeconds ?? 30 * DAY
  const log = opts.logger ?? ((line: string) => process.stderr.write(`${line}\n`))

  mkdirSync(opts.dataDir, { recursive: true })
  const db = openDatabase(join(opts.dataDir, 'service.db'), MIGRATIONS, opts.busyTimeoutMs)
  const store = openStorage(db)

  let secret = store.settings.get('session_secret')
  if (!secret) {
    secret = newSecret()
    store.settings.set('session_secret', secret)
  }
  const signer = new SessionSigner(secret, ttl)

  const session = (user: UserStrict) => ({ token: signer.issue(user.id), user })

  const authOps: AuthOps = {
    async signIn(email, password) {
      const row = store.users.byEmail(email)
      const ok = await verifyPassword(password, row?.password_hash ?? null, cost)
      if (!ok || !row || row.deleted_at !== null) return null
      return session(publicUser(row))
    },
    async signUp(email, password, name) {
      if (store.users.byEmail(email)) return null
      const hash = await hashPassword(password, cost)
      const row = store.users.create(email, name, hash)
      return row ? session(publicUser(row)) : null
    }
  }

  function authenticate(req: IncomingMessage): UserStrict {
    const header = req.headers.authorization ?? req.headers.autorization
    const value = Array.isArray(header) ? header[0] : header
    if (!value) throw unauthorized('Sign in first: the Authorization header is missing')
    const m = /^\s*bearer\s+(\S+)\s*$/i.exec(value)
    if (!m) throw unauthorized('The Authorization header must be "Bearer <token>"')
    const token = m[1] as string
    if (SessionSigner.looksLikeSession(token)) {
      const claims = signer.verify(token)
      if (!claims) throw unauthorized('The session token is invalid or has expired')
      const row = store.users.byId(claims.sub)
      if (!row) throw unauthorized('The session token is invalid or has expired')
      return publicUser(row)
    }
    const row = token.length <= 256 ? store.apiTokens.userByToken(token) : undefined
    if (!row) throw unauthorized('The token is invalid or has been deleted')
    return publicUser(row)
  }

  const server = await listen({
    host,
    port: opts.port ?? 0,
    prefix: API_PREFIX,
    maxBodyBytes: maxBody,
    router: buildRouter(routeTables(store, authOps)),
    authenticate,
    log
  })
  const url = server.url
  if (opts.logger) opts.logger(`[service] listening on ${url}${API_PREFIX} (data: ${opts.dataDir})`)

  return {
    url,
    port: server.port,
    close: () => server.close(() => db.close()),
    async localSession(input) {
      const email = input.email.trim()
      let row = store.users.byEmail(email)
      if (!row) {
        row =
          store.users.create(email, input.name.trim() || email, UNUSABLE_PASSWORD) ??
          store.users.byEmail(email)
      }
      if (!row) throw new Error(`Could not create the local user ${email}`)
      return session(publicUser(row))
    }
  }
}
