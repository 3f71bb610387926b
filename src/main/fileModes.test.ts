/**
 * The app's folders are 0700 and its files 0600, for what it creates and for what an older
 * version left readable by others (here made 0755/0644 on purpose, so the umask does not matter):
 * user data, the cache folder and its SQLite files (WAL and shared memory included), profiles,
 * settings, window state, the log, and the Local workspace's folder. Real files, real modes.
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startService } from '../service'
import { testCore, tempDir, waitFor } from '../../test/support/mainCore'
import { createFileLog } from './desktop/log'
import { WindowStateFile } from './desktop/windowState'

const posix = process.platform !== 'win32'
const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

/** Every folder and file under `dir` (not inside `skip`), with its permission bits. */
function modes(dir: string, skip: string): { path: string; dir: boolean; mode: number }[] {
  const out: { path: string; dir: boolean; mode: number }[] = []
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    const s = statSync(p)
    out.push({ path: p, dir: s.isDirectory(), mode: s.mode & 0o777 })
    if (s.isDirectory() && p !== skip) out.push(...modes(p, skip))
  }
  return out
}

describe('file modes', () => {
  it('keeps every folder 0700 and every file 0600, also those an older version left open', async () => {
    const userDataDir = tempDir('agent-desk-modes-')
    chmodSync(userDataDir, 0o755)
    // What an older version left: an open cache folder, an open settings file.
    mkdirSync(join(userDataDir, 'cache'), { mode: 0o755 })
    chmodSync(join(userDataDir, 'cache'), 0o755)
    writeFileSync(join(userDataDir, 'settings.json'), '{"updates":"off","theme":"system"}\n')
    chmodSync(join(userDataDir, 'settings.json'), 0o644)

    const svc = await startService({
      dataDir: tempDir('agent-desk-svc-'),
      port: 0,
      scryptCost: 16,
      logger: () => undefined
    })
    cleanup.push(() => svc.close())
    const t = testCore({ userDataDir })
    cleanup.push(() => t.core.dispose())
    const profile = await t.call('profiles.save', { name: 'Svc', baseUrl: svc.url })
    await t.call('session.signUp', {
      profileId: profile.id,
      email: 'm@b.co',
      password: 'password-1',
      name: 'M'
    })
    await t.call('documents.create', { name: 'Q3', type: 'PDF', url: 'https://example.com/q3.pdf' })
    await t.call('settings.set', { theme: 'dark' })
    const windowFile = new WindowStateFile(userDataDir)
    windowFile.save({ x: 10, y: 10, width: 1000, height: 700, maximized: false })
    await windowFile.saved()
    const log = createFileLog({ dir: join(userDataDir, 'logs') })
    log.error('a line')
    await waitFor(() => {
      try {
        return readFileSync(log.file, 'utf8').includes('a line')
      } catch {
        return false
      }
    })
    await t.call('session.startLocal')

    const local = join(userDataDir, 'local-workspace')
    const all = modes(userDataDir, local)
    const names = all.map((e) => relative(userDataDir, e.path))
    for (const expected of [
      'cache',
      'logs',
      'local-workspace',
      'profiles.json',
      'settings.json',
      'window-state.json'
    ])
      expect(names).toContain(expected)
    expect(names.some((n) => n.endsWith('.sqlite-wal'))).toBe(true)
    expect(names.some((n) => n.endsWith('.sqlite-shm'))).toBe(true)
    expect(names).toContain(join('logs', 'main.log'))
    if (!posix) return
    expect(statSync(userDataDir).mode & 0o777).toBe(0o700)
    for (const e of all)
      expect([relative(userDataDir, e.path), e.mode.toString(8)]).toEqual([
        relative(userDataDir, e.path),
        e.dir ? '700' : '600'
      ])
  })
})
