/**
 * A small file of the app's (profiles.json, settings.json, window-state.json) written whole and
 * atomically: to a temporary file beside it, then renamed over it, so a crash leaves the old file
 * or the new one, never half of one. The write goes on off main's event loop: a rename waits for
 * the file system's journal, 40–86 ms when another program (or the Local workspace's own backup)
 * keeps the disk busy, and main answers every IPC call.
 *
 * `save()` asks for the text as it is now to reach the file: writes run one at a time, and the
 * saves made while one runs are written together in the next (the text is taken as that write
 * starts; saves made in one turn of the event loop go in one write). `saved()` tells when every
 * save made so far is in the file, or why the last write failed.
 */
import { randomUUID } from 'node:crypto'
import { rename, rm, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { AppError } from '../shared/errors'
import { ensurePrivateDirAsync, PRIVATE_FILE_MODE } from './privateFiles'

const REASONS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EACCES: 'no permission to write there',
  EPERM: 'no permission to write there',
  EROFS: 'the disk is read-only'
}

/**
 * Waits for `saved`; when the write failed for a reason the user can act on (a full disk, no
 * permission), tells the page so in words (`what`: "Your settings"). Any other failure is thrown
 * as it is: the core logs it and the page gets its safe message, without paths.
 */
export async function savedOrTold(what: string, saved: Promise<void>): Promise<void> {
  try {
    await saved
  } catch (e) {
    const reason = REASONS[(e as NodeJS.ErrnoException | null)?.code ?? '']
    if (!reason) throw e
    throw new AppError({
      kind: 'internal',
      message: `${what} could not be saved: ${reason}. The change applies until Agent Desk quits.`
    })
  }
}

export class AtomicFile {
  /** A save not yet in a write; the write running; how the last write failed (null: it did not). */
  private dirty = false
  private writing: Promise<void> | null = null
  private failure: unknown = null
  /** The folder was made private by an earlier write that succeeded (a failed one makes it again). */
  private folderReady = false

  constructor(
    readonly file: string,
    private readonly text: () => string
  ) {}

  save(): void {
    this.dirty = true
    this.writing ??= this.writeOut()
  }

  /** Resolves once every save so far is in the file; rejects with the error when the last write failed. */
  async saved(): Promise<void> {
    while (this.writing) await this.writing
    if (this.failure) throw this.failure
  }

  private async writeOut(): Promise<void> {
    try {
      // The saves made in the same turn of the event loop go in one write.
      await Promise.resolve()
      while (this.dirty) {
        this.dirty = false
        const tmp = `${this.file}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`
        try {
          const text = this.text()
          if (!this.folderReady) await ensurePrivateDirAsync(dirname(this.file))
          await writeFile(tmp, text, { encoding: 'utf8', mode: PRIVATE_FILE_MODE })
          await rename(tmp, this.file)
          this.failure = null
          this.folderReady = true
        } catch (e) {
          await rm(tmp, { force: true }).catch(() => undefined)
          this.failure = e
          this.folderReady = false
        }
      }
    } finally {
      this.writing = null
    }
  }
}
