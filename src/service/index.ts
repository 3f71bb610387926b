/**
 * The embedded Agent Management Service: a node:http server over SQLite (libsql), serving
 * service-api.md under `/api/v1` plus the extra operations settled in decisions.md.
 */
import { mkdirSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
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
import {
  HttpError,
  isJsonContentType,
  notFound,
  parseJsonObject,
  readBody,
  sendError,
  sendOk,
  unauthorized
} from './http'
import { buildRouter, type AuthOps } from './routes'
import { publicUser, Store } from './store'

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
  const db = openDatabase(join(opts.dataDir, 'service.db'), opts.busyTimeoutMs)
  const store = new Store(db)

  let secret = store.getSetting('session_secret')
  if (!secret) {
    secret = newSecret()
    store.setSetting('session_secret', secret)
  }
  const signer = new SessionSigner(secret, ttl)

  const session = (user: UserStrict) => ({ token: signer.issue(user.id), user })

  const authOps: AuthOps = {
    async signIn(email, password) {
      const row = store.userByEmail(email)
      const ok = await verifyPassword(password, row?.password_hash ?? null, cost)
      if (!ok || !row || row.deleted_at !== null) return null
      return session(publicUser(row))
    },
    async signUp(email, password, name) {
      if (store.userByEmail(email)) return null
      const hash = await hashPassword(password, cost)
      const row = store.createUser(email, name, hash)
      return row ? session(publicUser(row)) : null
    }
  }
  const router = buildRouter(store, authOps)

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
      const row = store.userById(claims.sub)
      if (!row) throw unauthorized('The session token is invalid or has expired')
      return publicUser(row)
    }
    const row = token.length <= 256 ? store.userByApiToken(token) : undefined
    if (!row) throw unauthorized('The token is invalid or has been deleted')
    return publicUser(row)
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = req.url ?? '/'
    const q = url.indexOf('?')
    const path = q === -1 ? url : url.slice(0, q)
    if (!path.startsWith(`${API_PREFIX}/`)) throw notFound('Route')
    const { handler, params } = router.match(req.method ?? 'GET', path.slice(API_PREFIX.length))
    const query = q === -1 ? null : new URLSearchParams(url.slice(q + 1))
    const user = handler.auth ? authenticate(req) : null
    let body: Record<string, unknown> = {}
    if (handler.body) {
      if (!isJsonContentType(req.headers['content-type'])) {
        throw new HttpError(
          415,
          'unsupported_media_type',
          'Send the body as JSON with Content-Type: application/json'
        )
      }
      body = parseJsonObject(await readBody(req, maxBody))
    }
    let data: unknown
    if (handler.auth) {
      if (!user) throw unauthorized()
      data = await handler.run({ user, params, query, body })
    } else {
      data = await handler.run({ params, query, body })
    }
    sendOk(res, data)
  }

  function fail(req: IncomingMessage, res: ServerResponse, e: unknown) {
    if (!req.complete) req.resume() // drain what the client is still sending; never read it
    if (res.headersSent) {
      log(`[service] error after response started: ${(e as Error)?.stack ?? String(e)}`)
      res.destroy()
      return
    }
    if (e instanceof HttpError) {
      sendError(res, e)
      return
    }
    log(`[service] ${req.method} ${req.url} failed: ${(e as Error)?.stack ?? String(e)}`)
    sendError(
      res,
      new HttpError(500, 'internal', 'Something went wrong in the service; the request was not completed')
    )
  }

  const server = createServer((req, res) => {
    try {
      handle(req, res).catch((e: unknown) => fail(req, res, e))
    } catch (e) {
      fail(req, res, e)
    }
  })
  server.keepAliveTimeout = 30_000

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  const urlHost = host.includes(':') ? `[${host}]` : host
  const url = `http://${urlHost}:${port}`
  if (opts.logger) opts.logger(`[service] listening on ${url}${API_PREFIX} (data: ${opts.dataDir})`)

  let closing: Promise<void> | null = null
  return {
    url,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => {
          db.close()
          resolve()
        })
        server.closeAllConnections()
      })
      return closing
    },
    async localSession(input) {
      const email = input.email.trim()
      let row = store.userByEmail(email)
      if (!row) {
        row =
          store.createUser(email, input.name.trim() || email, UNUSABLE_PASSWORD) ?? store.userByEmail(email)
      }
      if (!row) throw new Error(`Could not create the local user ${email}`)
      return session(publicUser(row))
    }
  }
}
