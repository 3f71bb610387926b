/**
 * The main process's offline store for one profile+user: the offline cache (items, lists,
 * catalogue, meta), the outbox of changes waiting for the server and the drafts. One SQLite file each.
 */
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { SqliteCacheStore } from './cache'
import { closeOnThread } from './closeThread'
import { closeDb, type Db } from './db'
import { type OpenResult, openOrRebuild, openOrRebuildLettingGo } from './rebuild'
import { releaseClosedFiles } from './storeFiles'
import { SqliteOutboxStore } from './outbox'
import { SqliteDraftStore } from './drafts'

import type { OutboxEntry } from '../../shared/ipc'
import type { OfflineStore, OutboxStore } from './types'

export { replayOutbox, toErrorData, type ReplayResult } from './replay'
export { removeStoreFiles } from './storeFiles'
export { SCHEMA_VERSION } from './db'
export * from './types'

class SqliteOfflineStore implements OfflineStore {
  readonly cache: SqliteCacheStore
  readonly outbox: SqliteOutboxStore
  readonly drafts: SqliteDraftStore
  private closed = false

  constructor(
    private readonly db: Db,
    readonly file: string,
    readonly rebuilt: boolean,
    readonly memory: boolean
  ) {
    this.cache = new SqliteCacheStore(db, file, memory ? 'none' : rebuilt ? 'new file' : 'file')
    this.outbox = new SqliteOutboxStore(db)
    this.drafts = new SqliteDraftStore(db)
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    this.cache.release()
    this.checkpointAndClose()
  }

  async closeOffMain(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.cache.release()
    if (this.memory) return this.checkpointAndClose()
    await closeOnThread(
      this.file,
      () => closeDb(this.db),
      () => this.checkpointAndClose()
    )
  }

  private checkpointAndClose(): void {
    try {
      // Fold the write-ahead log into the main file: the next (cold) open reads one compact file.
      this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    } catch {
      // a damaged file still closes
    }
    closeDb(this.db)
  }
}

/**
 * Opens (creating folders) the SQLite file of one profile+user. A corrupt file, or one from
 * another schema version, is renamed `*.corrupt-<ts>` and rebuilt (its queued edits are salvaged
 * when readable); never fatal.
 */
export function openOfflineStore(file: string): OfflineStore {
  return storeOf(file, openOrRebuild(file))
}

/**
 * As `openOfflineStore`, for a session: on Windows, which renames no open file, a damaged file is
 * moved aside once the driver has let go of it (storeFiles.ts, `releaseClosedFiles`), where
 * `openOfflineStore` would leave it for the next start and keep this run's store in memory.
 * `platform`: whose way, this machine's unless a test says otherwise.
 */
export async function openOfflineStoreLettingGo(
  file: string,
  platform = process.platform
): Promise<OfflineStore> {
  return storeOf(
    file,
    platform === 'win32' ? await openOrRebuildLettingGo(file, releaseClosedFiles) : openOrRebuild(file)
  )
}

function storeOf(file: string, { db, rebuilt, memory }: OpenResult): OfflineStore {
  return new SqliteOfflineStore(db, file, rebuilt, memory)
}

/**
 * A file-name-safe, collision-free rendering of an id: letters are lower-cased, `[a-z0-9_.]`
 * and single inner hyphens are kept, anything else is %-escaped; when anything was changed (or
 * the id is long) a hash of the exact id is appended, so ids differing only in case or escaping
 * never share a file (case-insensitive file systems included). A safe segment never contains
 * `--`, so `${profile}--${user}` is unambiguous.
 */
export function safeSegment(id: string): string {
  let out = ''
  let changed = false
  const chars = [...id]
  chars.forEach((ch, i) => {
    if (/[a-z0-9_.]/.test(ch)) out += ch
    else if (/[A-Z]/.test(ch)) {
      out += ch.toLowerCase()
      changed = true
    } else if (ch === '-' && i > 0 && i < chars.length - 1 && chars[i - 1] !== '-' && chars[i + 1] !== '-')
      out += ch
    else {
      out += [...Buffer.from(ch, 'utf8')]
        .map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`)
        .join('')
      changed = true
    }
  })
  if (out === '' || out === '.' || out === '..') changed = true
  if (out.length > 80) {
    out = out.slice(0, 80)
    changed = true
  }
  if (changed) out += `~${createHash('sha256').update(id).digest('hex').slice(0, 10)}`
  return out
}

/** `${userDataDir}/cache/${safe(profileId)}--${safe(userId)}.sqlite` */
export function offlineStorePath(userDataDir: string, profileId: string, userId: string): string {
  return join(userDataDir, 'cache', `${safeSegment(profileId)}--${safeSegment(userId)}.sqlite`)
}

/** Where the files of a profile's stores are (each user's, with what was moved aside): a folder and a name prefix. */
export function profileStoreFiles(userDataDir: string, profileId: string): { dir: string; prefix: string } {
  return { dir: join(userDataDir, 'cache'), prefix: `${safeSegment(profileId)}--` }
}

/** The outbox as plain data, for the renderer. */
export function outboxSnapshot(outbox: OutboxStore): OutboxEntry[] {
  return JSON.parse(JSON.stringify(outbox.list())) as OutboxEntry[]
}
