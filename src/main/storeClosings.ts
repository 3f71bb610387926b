/**
 * The stores of ended sessions, closing off main (offline/closeThread.ts). A close waits for any
 * close of the same file before it; a store whose cache is to be cleared has its files deleted
 * once closed everywhere, unless a session has opened the same file again meanwhile; a session
 * that opens a file while its files are being deleted waits for that (`removal`: storeFiles.ts
 * cuts them to nothing first, or on Windows, which deletes no open file, has the driver let go of
 * them). The app's end waits for them all.
 */
import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { type OfflineStore, removeStoreFiles } from './offline'

export class StoreClosings {
  private readonly closing = new Map<string, Promise<void>>()
  /** Deletions of a store's files under way, by file (settled ones are gone). */
  private readonly removing = new Map<string, Promise<void>>()

  constructor(
    private readonly log: (message: string, err?: unknown) => void,
    /** Whether a session holds `file` open now (its files are then kept). */
    private readonly inUse: (file: string) => boolean
  ) {}

  /**
   * Closes `store` (of `file`), then deletes its files when `clear()` says so. Rejects when they
   * could not be deleted (a failed close is logged: the next open recovers the file).
   */
  close(store: OfflineStore, file: string, clear: () => boolean): Promise<void> {
    const done = (this.closing.get(file) ?? Promise.resolve())
      .then(() => store.closeOffMain())
      .catch((e: unknown) => this.log('Could not close the local store', e))
      .then(() => (clear() && !this.inUse(file) ? this.remove(file) : undefined))
    const settled = done
      .catch((e: unknown) => this.log('Could not clear the local store', e))
      .finally(() => {
        if (this.closing.get(file) === settled) this.closing.delete(file)
      })
    this.closing.set(file, settled)
    return done
  }

  /** The deletion of `file`'s files under way, if any (settles when it ends; never rejects). */
  removal(file: string): Promise<void> | undefined {
    return this.removing.get(file)
  }

  private remove(file: string): Promise<void> {
    const removal = removeStoreFiles(file)
    const settled = removal
      .catch(() => undefined)
      .finally(() => {
        if (this.removing.get(file) === settled) this.removing.delete(file)
      })
    this.removing.set(file, settled)
    return removal
  }

  /**
   * Deletes every file of `dir` whose name begins with `prefix` (a removed profile's stores, each
   * with its log and what was moved aside from it), once the closes of those stores under way have
   * ended; a store a session holds is kept. Failures are logged: what is left is not used again.
   */
  async removeAll({ dir, prefix }: { dir: string; prefix: string }): Promise<void> {
    const ours = (file: string) => file.startsWith(join(dir, prefix))
    await Promise.all([...this.closing].filter(([file]) => ours(file)).map(([, closed]) => closed))
    const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.startsWith(prefix))
    const stores = names.filter((n) => n.endsWith('.sqlite')).map((n) => join(dir, n))
    const kept = stores.filter((f) => this.inUse(f))
    const others = names
      .map((n) => join(dir, n))
      .filter((f) => !stores.includes(f) && !stores.some((k) => f.startsWith(`${k}-`))) // a log: removeStoreFiles
    const removals = [
      ...stores.filter((f) => !kept.includes(f)).map((f) => this.remove(f)),
      ...others.map((f) => rm(f, { force: true, maxRetries: 3, retryDelay: 100 }))
    ]
    for (const r of await Promise.allSettled(removals))
      if (r.status === 'rejected') this.log("Could not delete a removed profile's local data", r.reason)
  }

  /** Resolves once every close asked so far has ended (never rejects). */
  async all(): Promise<void> {
    await Promise.all(this.closing.values())
  }
}
