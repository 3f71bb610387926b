/**
 * Temporary folders for tests (not a test file). Every folder made here is removed after the test
 * file that made it (`tempDirs.setup.ts`), so a run leaves nothing behind in the system's temp
 * folder — it used to leave hundreds of user-data, cache and service folders a run.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const made: string[] = []

export function tempDir(prefix = 'agent-desk-main-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  made.push(dir)
  return dir
}

/** Removes every folder made so far; one still held open (Windows) is left, not failed on. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
    } catch {
      // A file still open on Windows: the system's temp cleanup takes it later.
    }
  }
}
