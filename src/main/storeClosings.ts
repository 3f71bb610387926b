/**
 * The stores of ended sessions, closing off main (offline/closeThread.ts). A close waits for any
 * close of the same file before it; a store whose cache is to be cleared has its files deleted
 * once closed everywhere, unless a session has opened the same file again meanwhile; a session
 * that opens a file while its files are being deleted waits for that (`removal`: storeFiles.ts
 * cuts them to nothing first, or on Windows, which deletes no open file, has the driver let go of
 * them). The app's end waits for them all.
 */
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

  /** Resolves once every close asked so far has ended (never rejects). */
  async all(): Promise<void> {
    await Promise.all(this.closing.values())
  }
}
