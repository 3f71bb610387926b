/** Test helpers for the store: a temp folder per test, cleaned up after. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openProfileStore, type ProfileStore } from '../../src/main/store/index'

export interface TempStores {
  dir: string
  file: string
  open(file?: string): ProfileStore
  cleanup(): void
}

export function tempStores(): TempStores {
  const dir = mkdtempSync(join(tmpdir(), 'agent-desk-store-'))
  const opened: ProfileStore[] = []
  const file = join(dir, 'cache', 'p--u.sqlite')
  return {
    dir,
    file,
    open(f = file) {
      const s = openProfileStore(f)
      opened.push(s)
      return s
    },
    cleanup() {
      for (const s of opened) s.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
