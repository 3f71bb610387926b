/**
 * The embedded Agent Management Service: a node:http(s) server over SQLite (libsql), serving
 * service-api.md under `/api/v1` plus the extra operations settled in decisions.md.
 */
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
import {
  BACKUP_EVERY_MS,
  BACKUP_KEEP,
  checkLargeDatabase,
  DB_FILE,
  isDamage,
  listBackups,
  makeBackup,
  moveAside,
  type BackupInfo,
  type DamageNotice
} from './backup'
import { openDatabase, type Db } from './db'
import { openLongReads } from './reads'
import { prepareDataDir, secureDbFiles } from './files'
import { unauthorized } from './http'
import { idempotencyStorage } from './idempotency'
import { MIGRATIONS, openStorage, routeTables } from './resources'
import { publicUser, type AuthOps } from './resources/users'
import { revocationStorage } from './revocation'
import { ResponseCache } from './responses'
import { buildRouter, type Credential } from './routes'
import { letGoOfClosedFiles } from './letGo'
import { listen } from './server'
import { SignInThrottle, type ThrottleOptions } from './throttle'
import { WriteQueue } from './writes'

export { DataDirError } from './files'
export { listBackups, restoreBackup, type BackupInfo, type DamageNotice } from './backup'

export interface ServiceOptions {
  /** Default 127.0.0.1. */
  host?: string
  /** 0 (default) picks a free port. */
  port?: number
  /** Directory holding the database (and, for the CLI, the signing secret); created 0700 if missing. */
  dataDir: string
  /** Lifetime of session tokens; default 30 days. */
  tokenTtlSeconds?: number
  /** Largest accepted request body; default 1 MiB. */
  maxBodyBytes?: number
  /** scrypt N (power of two) of new password hashes; default 2^17. Tests use a low value. */
  scryptCost?: number
  /** Receives log lines (start-up, unexpected errors). Default: stderr for errors only. */
  logger?: (line: string) => void
  /** How long a write waits for a lock held by another connection to the same file; default 5000 ms. */
  busyTimeoutMs?: number
  /** Offer HTTP sign-in and sign-up (default true). The Local workspace mints its session in-process. */
  passwordRoutes?: boolean
  /**
   * The session signing secret, kept by the caller (the app keeps it in the OS keychain). When
   * given, it is never written to service.db, and a secret stored there before is removed.
   * Absent: the secret is kept in service.db (the CLI).
   */
  sessionSecret?: string
  /** Sign-in back-off (defaults in throttle.ts). */
  signInThrottle?: ThrottleOptions
  /** PEM certificate and key: serve HTTPS. */
  tls?: { cert: string | Buffer; key: string | Buffer }
  /**
   * A service.db that cannot be opened: 'fail' (default: an error, the file untouched) or
   * 'moveAside' (renamed `service.db.damaged-<time>`, a fresh database started, `damage` set).
   */
  onDamagedDatabase?: 'fail' | 'moveAside'
  /**
   * From this size (service.db and its WAL) the file is checked on a worker thread before it is
   * opened, not on the caller's (default 1 MiB; backup.ts checkLargeDatabase).
   */
  checkOnThreadFromBytes?: number
  /** Back up service.db at start and then every `everyMs` (default daily), keeping `keep` (7). */
  backups?: { keep?: number; everyMs?: number }
}

export interface RunningService {
  /** e.g. http://127.0.0.1:43121 (without /api/v1). */
  url: string
  port: number
  /** Set when service.db was damaged and moved aside at start (`onDamagedDatabase: 'moveAside'`). */
  damage: DamageNotice | null
  close(): Promise<void>
  /**
   * In-process: creates the user if missing (no password needed, random unusable password) and
   * issues a session token. Used by the Local workspace.
   */
  localSession(input: { email: string; name: string }): Promise<{ token: string; user: UserStrict }>
  /**
   * Backs up now, on a worker thread, after any backup being made (null: unchanged since the
   * newest backup).
   */
  backupNow(): Promise<BackupInfo | null>
  /** Resolves once no backup is being made (the one at start, a daily one, or backupNow's). */
  backupsDone(): Promise<void>
}

export const API_PREFIX = '/api/v1'
const DAY = 24 * 60 * 60

/**
 * Opens service.db (a large one checked on a worker thread first); a damaged one fails clearly, or
 * is moved aside when asked.
 */
async function openOrRecover(
  opts: ServiceOptions,
  file: string
): Promise<{ db: Db; damage: DamageNotice | null }> {
  try {
    const checked = await checkLargeDatabase(file, opts.checkOnThreadFromBytes)
    if (checked) opts.logger?.(`[service] ${file} was checked on a worker thread`)
    return { db: openDatabase(file, MIGRATIONS, opts.busyTimeoutMs, checked), damage: null }
  } catch (e) {
    if (!isDamage(e)) throw e
    const why = e instanceof Error ? e.message : String(e)
    if (opts.onDamagedDatabase !== 'moveAside') {
      throw new Error(
        `${file} cannot be opened (${why}). It was left untouched; restore a backup from ` +
          `${join(opts.dataDir, 'backups')} or move the file away to start with an empty database.`
      )
    }
    // The check's statement holds the file until collected (letGo.ts): let go before the move.
    await letGoOfClosedFiles()
    const at = new Date()
    const movedTo = moveAside(file, 'damaged', at)
    secureDbFiles(file)
    const db = openDatabase(file, MIGRATIONS, opts.busyTimeoutMs)
    const damage = {
      error: why,
      movedTo,
      at: at.toISOString(),
      newestBackup: listBackups(opts.dataDir)[0] ?? null
    }
    return { db, damage }
  }
}

export async function startService(opts: ServiceOptions): Promise<RunningService> {
  const host = opts.host ?? '127.0.0.1'
  const maxBody = opts.maxBodyBytes ?? 1024 * 1024
  const cost = opts.scryptCost ?? DEFAULT_SCRYPT_COST
  const ttl = opts.tokenTtlSeconds ?? 30 * DAY
  const log = opts.logger ?? ((line: string) => process.stderr.write(`${line}\n`))

  prepareDataDir(opts.dataDir)
  const file = join(opts.dataDir, DB_FILE)
  secureDbFiles(file)
  const { db, damage } = await openOrRecover(opts, file)
  secureDbFiles(file)
  if (damage) log(`[service] ${file} was damaged (${damage.error}); it was moved to ${damage.movedTo}`)
  const reads = openLongReads(db, file, opts.busyTimeoutMs)
  const store = openStorage(db, reads)
  const revocations = revocationStorage(db)
  revocations.prune()
  const idempotency = idempotencyStorage(db)
  const throttle = new SignInThrottle(opts.signInThrottle)

  let secret = opts.sessionSecret
  if (secret !== undefined) {
    store.settings.delete('session_secret')
  } else {
    secret = store.settings.get('session_secret')
    if (!secret) {
      secret = newSecret()
      store.settings.set('session_secret', secret)
    }
  }
  const signer = new SessionSigner(secret, ttl)

  const session = (user: UserStrict) => ({ token: signer.issue(user.id), user })

  const authOps: AuthOps = {
    async signIn(email, password, address) {
      throttle.check(email, address)
      const row = store.users.byEmail(email)
      const ok = await verifyPassword(password, row?.password_hash ?? null, cost)
      if (!ok || !row || row.deleted_at !== null) {
        throttle.failed(email, address)
        return null
      }
      throttle.succeeded(email)
      return session(publicUser(row))
    },
    async signUp(email, password, name) {
      if (store.users.byEmail(email)) return null
      const hash = await hashPassword(password, cost)
      const row = store.users.create(email, name, hash)
      return row ? session(publicUser(row)) : null
    },
    signOut(credential) {
      if (credential.kind !== 'session') return { revoked: false }
      revocations.revoke(credential.jti, credential.exp)
      return { revoked: true }
    }
  }

  function authenticate(req: IncomingMessage): { user: UserStrict; credential: Credential } {
    const header = req.headers.authorization ?? req.headers.autorization
    const value = Array.isArray(header) ? header[0] : header
    if (!value) throw unauthorized('Sign in first: the Authorization header is missing')
    const m = /^\s*bearer\s+(\S+)\s*$/i.exec(value)
    if (!m) throw unauthorized('The Authorization header must be "Bearer <token>"')
    const token = m[1] as string
    if (SessionSigner.looksLikeSession(token)) {
      const claims = signer.verify(token)
      if (!claims) throw unauthorized('The session token is invalid or has expired')
      if (revocations.isRevoked(claims.jti)) throw unauthorized('This session was signed out')
      const row = store.users.byId(claims.sub)
      if (!row) throw unauthorized('The session token is invalid or has expired')
      return { user: publicUser(row), credential: { kind: 'session', jti: claims.jti, exp: claims.exp } }
    }
    const row = token.length <= 256 ? store.apiTokens.userByToken(token) : undefined
    if (!row) throw unauthorized('The token is invalid or has been deleted')
    return { user: publicUser(row), credential: { kind: 'apiToken' } }
  }

  // One backup at a time: each waits for the one before (a failed one is logged, not passed on).
  let backups: Promise<unknown> = Promise.resolve()
  const backupNow = () => {
    const next = backups.then(() => makeBackup(file, opts.dataDir, opts.backups?.keep ?? BACKUP_KEEP))
    backups = next.catch(() => undefined)
    return next
  }
  const backupsDone = () => backups.then(() => undefined)
  let timer: NodeJS.Timeout | null = null
  const backupQuietly = () => {
    backupNow().catch((e: unknown) => {
      log(`[service] backup failed: ${e instanceof Error ? e.message : String(e)}`)
    })
  }
  if (opts.backups) {
    // Not right after a damaged file was moved aside: an empty copy would only push out a good one.
    if (!damage) backupQuietly()
    timer = setInterval(backupQuietly, opts.backups.everyMs ?? BACKUP_EVERY_MS)
    timer.unref()
  }

  let server: Awaited<ReturnType<typeof listen>>
  try {
    server = await listen({
      host,
      port: opts.port ?? 0,
      prefix: API_PREFIX,
      maxBodyBytes: maxBody,
      router: buildRouter(routeTables(store, authOps, opts.passwordRoutes ?? true)),
      authenticate,
      idempotency,
      writes: new WriteQueue(db),
      responses: new ResponseCache(db),
      ...(opts.tls ? { tls: opts.tls } : {}),
      log
    })
  } catch (e) {
    if (timer) clearInterval(timer)
    await backupsDone()
    await reads?.close()
    db.close()
    throw e
  }
  const url = server.url
  let closing: Promise<void> | null = null
  if (opts.logger) opts.logger(`[service] listening on ${url}${API_PREFIX} (data: ${opts.dataDir})`)

  return {
    url,
    port: server.port,
    damage,
    close: () =>
      (closing ??= server
        .close(() => {
          if (timer) clearInterval(timer)
        })
        .then(async () => {
          // A backup being made reads the file: the caller may move it once close resolves.
          await backupsDone()
          // Reads sent to clients end as their connections close (all of them, just above).
          await reads?.close()
          try {
            // Everything into service.db itself: the file alone is then the whole database.
            db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
          } catch (e) {
            log(`[service] checkpoint on close failed: ${e instanceof Error ? e.message : String(e)}`)
          }
          db.close()
        })),
    backupNow,
    backupsDone,
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
