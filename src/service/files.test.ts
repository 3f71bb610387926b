/**
 * Issue 12 items 9 and 22: file modes of the data folder and database files, backups (made at
 * start and on demand, 0600, last 7 kept, unchanged copies dropped), damaged databases (never
 * deleted: refused clearly, or moved aside and a backup offered), restore, and the CLI's answer
 * to a data folder it cannot use.
 */
import { spawn } from 'node:child_process'
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'libsql'
import { afterEach, describe, expect, it } from 'vitest'
import { heldPaths } from '../../test/support/heldFiles'
import { signUp } from '../../test/support/serviceKit'
import {
  backupsDir,
  checkLargeDatabase,
  listBackups,
  makeBackup,
  restoreBackup,
  stamp,
  type BackupInfo
} from './backup'
import { startService, type RunningService, type ServiceOptions } from './index'

const root = fileURLToPath(new URL('../..', import.meta.url))
const posix = process.platform !== 'win32'
const mode = (p: string) => statSync(p).mode & 0o777
const dirs: string[] = []
const running: RunningService[] = []
afterEach(async () => {
  for (const s of running.splice(0)) await s.close()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
function temp() {
  const d = mkdtempSync(join(tmpdir(), 'agent-desk-files-'))
  dirs.push(d)
  return d
}
async function start(dataDir: string, more: Partial<ServiceOptions> = {}) {
  const s = await startService({ dataDir, scryptCost: 16, logger: () => undefined, ...more })
  running.push(s)
  return s
}
async function stop(s: RunningService) {
  running.splice(running.indexOf(s), 1)
  await s.close()
}
const countAgents = (file: string) => {
  const db = new Database(file, { readonly: true })
  try {
    return Number((db.prepare('SELECT COUNT(*) AS n FROM agents').get() as { n: number }).n)
  } finally {
    db.close()
  }
}
const agent = { name: 'Kept', type: 'REACT', llm: { provider: 'p', model: 'm' } }

/** A service making backups (the copy at start made), a user of it and one agent. */
async function backedUpWithAgent(userName: string) {
  const dataDir = temp()
  const s = await start(dataDir, { backups: {} })
  await s.backupsDone() // the copy at start, before the changes the caller makes
  const u = await signUp(`${s.url}/api/v1`, userName)
  await u.api.post('/agents', agent)
  return { dataDir, s, u }
}

describe.runIf(posix)('file modes (item 9)', () => {
  it('creates the data folder 0700 and service.db, -wal and -shm 0600', async () => {
    const dataDir = join(temp(), 'nested', 'data')
    const s = await start(dataDir)
    await signUp(`${s.url}/api/v1`, 'Modes')
    expect(mode(dataDir)).toBe(0o700)
    for (const f of ['service.db', 'service.db-wal', 'service.db-shm']) {
      expect(existsSync(join(dataDir, f)), f).toBe(true)
      expect(mode(join(dataDir, f)), f).toBe(0o600)
    }
  })

  it('tightens an existing 0755 folder and 0644 files', async () => {
    const dataDir = temp()
    const first = await start(dataDir)
    await signUp(`${first.url}/api/v1`, 'Loose')
    await stop(first)
    chmodSync(dataDir, 0o755)
    for (const f of readdirSync(dataDir).filter((n) => n.startsWith('service.db')))
      chmodSync(join(dataDir, f), 0o644)
    await start(dataDir)
    expect(mode(dataDir)).toBe(0o700)
    for (const f of readdirSync(dataDir).filter((n) => n.startsWith('service.db')))
      expect(mode(join(dataDir, f)), f).toBe(0o600)
  })
})

describe('backups (item 22)', () => {
  it('backs up at start (0600 files in a 0700 folder), skips unchanged copies, keeps the last 7', async () => {
    const dataDir = temp()
    const s = await start(dataDir, { backups: {} })
    await s.backupsDone()
    const first = listBackups(dataDir)
    expect(first).toHaveLength(1)
    if (posix) {
      expect(mode(backupsDir(dataDir))).toBe(0o700)
      expect(mode(join(backupsDir(dataDir), first[0]!.name))).toBe(0o600)
    }
    expect(await s.backupNow()).toBeNull() // nothing changed since
    const u = await signUp(`${s.url}/api/v1`, 'Backed')
    await u.api.post('/agents', agent)
    const second = await s.backupNow()
    expect(second).not.toBeNull()
    expect(countAgents(join(backupsDir(dataDir), second!.name))).toBe(1)

    const file = join(dataDir, 'service.db')
    const db = new Database(file)
    const base = Date.now() + 60_000
    try {
      for (let i = 0; i < 9; i++) {
        db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(`k${i}`, 'v')
        expect(await makeBackup(file, dataDir, 7, new Date(base + i * 1000))).not.toBeNull()
      }
    } finally {
      db.close()
    }
    const kept = listBackups(dataDir).map((b) => b.name)
    const made = (i: number) => `service-${stamp(new Date(base + i * 1000))}.db`
    expect(kept).toEqual([8, 7, 6, 5, 4, 3, 2].map(made))
    expect(readdirSync(backupsDir(dataDir)).filter((n) => !n.startsWith('.'))).toHaveLength(7)
  })

  it('makes the copy on a worker thread, and close waits for a copy being made', async () => {
    const { dataDir, s, u } = await backedUpWithAgent('Threaded')
    let made: BackupInfo | null | undefined
    const backup = s.backupNow().then((b) => (made = b))
    // Made on this thread, the copy would be done before the event loop turned once.
    await new Promise((turned) => setImmediate(turned))
    expect(made).toBeUndefined()
    await backup
    expect(countAgents(join(backupsDir(dataDir), made!.name))).toBe(1)

    // Closing while a copy is made: once close resolves, the copy is done (the file can be moved).
    await u.api.post('/agents', { ...agent, name: 'Second' })
    let done = false
    const last = s.backupNow().then(() => (done = true))
    await stop(s)
    expect(done).toBe(true)
    await last
    expect(countAgents(join(backupsDir(dataDir), listBackups(dataDir)[0]!.name))).toBe(2)
  })

  it('a copy that fails says why and leaves no temporary file behind', async () => {
    const dataDir = temp()
    const s = await start(dataDir, { backups: {} })
    await s.backupsDone()
    const before = readdirSync(backupsDir(dataDir))
    await expect(makeBackup(join(dataDir, 'missing.db'), dataDir)).rejects.toThrow(/there is no database at/)
    expect(readdirSync(backupsDir(dataDir))).toEqual(before)
    const u = await signUp(`${s.url}/api/v1`, 'After a failure')
    await u.api.post('/agents', agent)
    expect(await s.backupNow()).not.toBeNull()
  })

  it('restores a backup, moving the current database aside (never deleted)', async () => {
    const { dataDir, s, u } = await backedUpWithAgent('Restorer')
    const backup = (await s.backupNow())!
    await u.api.post('/agents', { ...agent, name: 'After backup' })
    await stop(s)
    const { movedAside } = await restoreBackup(dataDir, backup.name)
    expect(movedAside).toMatch(/service\.db\.before-restore-\d{8}T\d{9}Z$/)
    expect(countAgents(movedAside!)).toBe(2)
    expect(countAgents(join(dataDir, 'service.db'))).toBe(1)
    await expect(restoreBackup(dataDir, '../service.db')).rejects.toThrow(/no backup named/)
    const again = await start(dataDir)
    const list = await fetch(`${again.url}/api/v1/agents`, {
      headers: { authorization: `Bearer ${u.token}` }
    })
    expect(((await list.json()) as { data: unknown[] }).data).toHaveLength(1)
  })
})

/** A service.db with one user and one agent, a backup of it, and the file's bytes. */
async function populated() {
  const { dataDir, s, u } = await backedUpWithAgent('Damaged')
  for (let i = 0; i < 200; i++)
    await u.api.post('/documents', { name: `d${i}`.repeat(50), type: 'TXT', url: 'u' })
  const backup = (await s.backupNow())!
  await stop(s)
  return { dataDir, file: join(dataDir, 'service.db'), backup }
}

describe('a large service.db (issue 14)', () => {
  it("is checked on a worker thread before it is opened, from 1 MiB; a smaller one on the caller's", async () => {
    const dataDir = temp()
    const lines: string[] = []
    const logger = (line: string) => lines.push(line)
    await stop(await start(dataDir, { logger }))
    expect(lines.filter((l) => l.includes('worker thread'))).toEqual([])

    const db = new Database(join(dataDir, 'service.db'))
    const insert = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)')
    for (let i = 0; i < 17; i++) insert.run(`filler${i}`, 'x'.repeat(1024 * 1024))
    db.close()
    const s = await start(dataDir, { logger })
    expect(lines.filter((l) => l.includes('was checked on a worker thread'))).toHaveLength(1)
    const u = await signUp(`${s.url}/api/v1`, 'Large')
    expect((await u.api.post('/agents', agent)).status).toBe(200)
  })
})

describe('damaged service.db (item 22)', () => {
  const damages = {
    garbage: (file: string) => writeFileSync(file, 'this is not a database at all '.repeat(300)),
    truncated: (file: string) => truncateSync(file, Math.floor(statSync(file).size / 2)),
    // Opens and reads, but quick_check answers rows other than 'ok' (fragmentation on page 5).
    'a page overwritten': (file: string) => {
      const fd = openSync(file, 'r+')
      writeSync(fd, Buffer.alloc(3000, 'A'), 0, 3000, 4 * 4096 + 1000)
      closeSync(fd)
    }
  }
  // A file of 1 MiB or more is checked on a worker thread before it is opened; 0 sends every one there.
  const checks = { "on the caller's thread": {}, 'on a worker thread': { checkOnThreadFromBytes: 0 } }
  for (const [where, check] of Object.entries(checks)) {
    for (const [kind, damage] of Object.entries(damages)) {
      it(`${kind}, checked ${where}: the CLI default refuses clearly and leaves the file untouched`, async () => {
        const { dataDir, file } = await populated()
        damage(file)
        const bytes = readFileSync(file)
        await expect(start(dataDir, check)).rejects.toThrow(
          /cannot be opened \(.*(not a database|malformed).*left untouched/
        )
        expect(readFileSync(file).equals(bytes)).toBe(true)
      })

      it(`${kind}, checked ${where}: moveAside keeps the damaged file, starts fresh, tells, and offers the newest backup`, async () => {
        const { dataDir, file, backup } = await populated()
        damage(file)
        const bytes = readFileSync(file)
        const s = await start(dataDir, { ...check, onDamagedDatabase: 'moveAside', backups: {} })
        expect(s.damage).not.toBeNull()
        expect(s.damage!.error).toMatch(/not a database|malformed/)
        expect(s.damage!.movedTo).toMatch(/service\.db\.damaged-\d{8}T\d{9}Z$/)
        expect(readFileSync(s.damage!.movedTo).equals(bytes)).toBe(true)
        expect(s.damage!.newestBackup?.name).toBe(backup.name)
        expect((await fetch(`${s.url}/api/v1/agents`)).status).toBe(401) // serving, on a fresh db
        await stop(s)
        await restoreBackup(dataDir, backup.name)
        expect(countAgents(file)).toBe(1)
      })
    }
  }

  it.runIf(process.platform === 'linux')(
    'a damaged file is let go of before it is moved aside (Windows renames no open file)',
    async () => {
      const dataDir = temp()
      const file = join(dataDir, 'service.db')
      const db = new Database(file)
      db.exec(`CREATE TABLE t (x TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
        INSERT INTO t SELECT printf('%.500c', 'x') FROM n;`)
      db.close()
      damages['a page overwritten'](file)
      const s = await start(dataDir, { onDamagedDatabase: 'moveAside' })
      // The check that found the damage held the file (its statement, until collected).
      expect(s.damage?.movedTo).toBeDefined()
      expect(heldPaths().filter((p) => p.startsWith(s.damage!.movedTo))).toEqual([])
    }
  )

  it("a file of a few MB (a workspace of a few thousand agents) is checked on a worker thread, not on the caller's", async () => {
    const dir = temp()
    const file = join(dir, 'service.db')
    const db = new Database(file)
    db.exec(`CREATE TABLE t (x BLOB);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
      INSERT INTO t SELECT randomblob(50000) FROM n;`)
    db.close()
    expect(statSync(file).size).toBeGreaterThan(2_000_000)
    // (A quick_check reads the whole file: ~40 ms at 10 MB on these machines, on main's loop.)
    expect(await checkLargeDatabase(file)).toBe(true)
    writeFileSync(join(dir, 'small.db'), '')
    expect(await checkLargeDatabase(join(dir, 'small.db'))).toBe(false)
  })

  it('a damaged backup is not restored, and nothing is changed', async () => {
    for (const [kind, damage] of Object.entries(damages)) {
      const { dataDir, file, backup } = await populated()
      damage(join(backupsDir(dataDir), backup.name))
      const bytes = readFileSync(file)
      await expect(restoreBackup(dataDir, backup.name), kind).rejects.toThrow(/not a database|malformed/)
      expect(readFileSync(file).equals(bytes), kind).toBe(true)
      expect(
        readdirSync(dataDir).filter((n) => n.includes('before-restore')),
        kind
      ).toEqual([])
    }
  })
})

describe('a data folder the CLI cannot use (item 22)', () => {
  function runCli(data: string) {
    return new Promise<{ code: number | null; err: string; ms: number }>((resolve) => {
      const t0 = Date.now()
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'src/service/cli.ts', '--port', '0', '--data', data],
        {
          cwd: root,
          stdio: ['ignore', 'pipe', 'pipe']
        }
      )
      let err = ''
      child.stderr.on('data', (c: Buffer) => (err += c.toString()))
      child.stdout.on('data', () => child.kill('SIGTERM')) // it started: wrong, stop it
      child.on('exit', (code) => resolve({ code, err, ms: Date.now() - t0 }))
    })
  }

  it('answers /proc/x, a file, and a path under a file with a clear error and exit 1', async () => {
    const dir = temp()
    const file = join(dir, 'a-file')
    writeFileSync(file, 'x')
    const cases: [string, RegExp][] = [
      [file, /is a file, not a folder/],
      [join(file, 'sub'), /is a file, not a folder/]
    ]
    if (existsSync('/proc/self')) cases.push(['/proc/x', /cannot be used/])
    for (const [path, why] of cases) {
      const r = await runCli(path)
      expect(r.code, path).toBe(1)
      expect(r.err, path).toMatch(/The data folder .* cannot be used/)
      expect(r.err, path).toMatch(why)
      expect(r.ms, path).toBeLessThan(20_000)
    }
  })
})
