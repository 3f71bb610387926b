/** Test helpers for main's offline store: a temp folder per test, cleaned up after. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openOfflineStore, type OfflineStore } from '../../src/main/offline/index'

export interface TempStores {
  dir: string
  file: string
  open(file?: string): OfflineStore
  cleanup(): void
}

export function tempStores(): TempStores {
  const dir = mkdtempSync(join(tmpdir(), 'agent-desk-store-'))
  const opened: OfflineStore[] = []
  const file = join(dir, 'cache', 'p--u.sqlite')
  return {
    dir,
    file,
    open(f = file) {
      const s = openOfflineStore(f)
      opened.push(s)
      return s
    },
    cleanup() {
      for (const s of opened) s.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
