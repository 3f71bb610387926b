/**
 * resources/scripts/ensure-electron.mjs, the step `npm start` / `npm run dev` take before
 * electron-vite. The install path is the real one: a copy of the installed `electron` package
 * (its own install.js, checksums, package.json) and the real @electron/get download from a local
 * mirror this test serves (a zip it builds, with a stand-in executable, and its SHASUMS256.txt, which
 * @electron/get verifies the zip against).
 */
import { spawn } from 'node:child_process'
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { createHash } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  electronStatus,
  failureMessage,
  installerReason,
  nodeOlderThan,
  platformPath
} from '../resources/scripts/ensure-electron.mjs'
import { tempDir } from './support/tempDirs'
import { buildZip } from './support/zip'

const ROOT = resolve(__dirname, '..')
const SCRIPT = join(ROOT, 'resources/scripts/ensure-electron.mjs')
const REAL_ELECTRON = join(ROOT, 'node_modules/electron')
const VERSION = (JSON.parse(readFileSync(join(REAL_ELECTRON, 'package.json'), 'utf8')) as { version: string })
  .version
const EXE = platformPath(process.platform) ?? 'electron'
const ZIP_NAME = `electron-v${VERSION}-${process.platform}-${process.arch}.zip`

const temp = () => tempDir('ensure-electron-')

/** A project folder with a fresh copy of the electron package (no binary), as after `npm ci`. */
function freshProject(): { dir: string; electronDir: string } {
  const dir = temp()
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fresh', private: true }))
  const electronDir = join(dir, 'node_modules/electron')
  mkdirSync(electronDir, { recursive: true })
  for (const f of ['package.json', 'install.js', 'index.js', 'cli.js', 'checksums.json']) {
    cpSync(join(REAL_ELECTRON, f), join(electronDir, f))
  }
  // The installer's own dependencies, as npm would have placed them.
  symlinkSync(join(ROOT, 'node_modules/@electron'), join(dir, 'node_modules/@electron'))
  symlinkSync(join(ROOT, 'node_modules/@electron-internal'), join(dir, 'node_modules/@electron-internal'))
  return { dir, electronDir }
}

/**
 * The environment of a user who set nothing Electron-related, plus `extra`; its temp folder one of
 * the test's own (empty: `leftInTemp` tells what a run left there).
 */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(electron_|npm_config_electron|npm_package_config_electron)/i.test(k)) continue
    env[k] = v
  }
  const tmp = temp()
  return { ...env, TMPDIR: tmp, TMP: tmp, TEMP: tmp, ELECTRON_GET_NO_PROGRESS: '1', ...extra }
}
const leftInTemp = (env: NodeJS.ProcessEnv) => readdirSync(env.TMPDIR as string)

interface Run {
  code: number | null
  stdout: string
  stderr: string
  ms: number
}
function runScript(cwd: string, env: NodeJS.ProcessEnv, args: string[] = []): Promise<Run> {
  const started = Date.now()
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [SCRIPT, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('error', fail)
    child.on('close', (code) => done({ code, stdout, stderr, ms: Date.now() - started }))
  })
}

/** A local Electron mirror: serves files by path and records every request. */
async function mirror(files: Record<string, Buffer | string>, mode: 'serve' | 'hang' = 'serve') {
  const requests: string[] = []
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '')
    if (mode === 'hang') return
    const body = files[req.url ?? '']
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' })
      res.end('not here')
      return
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' })
    res.end(body)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      })
  }
}

function standInRelease() {
  const zip = buildZip([
    { name: EXE, data: '#!/bin/sh\necho "stand-in electron $*"\n', mode: 0o755 },
    { name: 'version', data: VERSION },
    { name: 'LICENSE', data: 'stand-in' }
  ])
  const sum = createHash('sha256').update(zip).digest('hex')
  return {
    [`/v${VERSION}/${ZIP_NAME}`]: zip,
    [`/v${VERSION}/SHASUMS256.txt`]: `${sum} *${ZIP_NAME}\n`
  }
}

/** The text with its line breaks (the paragraph is wrapped for a terminal) as spaces. */
const flat = (s: string) => s.replace(/\s+/g, ' ').trim()

/** What the one failure paragraph must be: the ways out, no stack, not electron-vite's words. */
function expectOneParagraph(stderr: string) {
  const text = stderr.trim()
  expect(text.split(/\n\s*\n/)).toHaveLength(1)
  expect(flat(text)).toMatch(/^Agent Desk cannot start: the Electron \S+ binary is not installed/)
  for (const way of [
    'ELECTRON_MIRROR',
    'ELECTRON_OVERRIDE_DIST_PATH',
    'ELECTRON_GET_USE_PROXY',
    'HTTPS_PROXY'
  ]) {
    expect(text).toContain(way)
  }
  expect(text).not.toMatch(/^\s+at /m)
  expect(text).not.toContain('Electron uninstall')
  expect(text).not.toContain('node:internal')
}

describe('ensure-electron: installing through the electron package’s own installer', () => {
  let served: Awaited<ReturnType<typeof mirror>> | null = null
  afterEach(async () => {
    await served?.close()
    served = null
  })

  it('downloads from the mirror, verifies the sums, writes path.txt and the binary; the second run does nothing', async () => {
    const { dir, electronDir } = freshProject()
    served = await mirror(standInRelease())
    const env = cleanEnv({
      ELECTRON_MIRROR: served.url,
      electron_use_remote_checksums: '1',
      electron_config_cache: join(dir, 'cache')
    })
    expect(electronStatus({ electronDir, env })).toEqual({
      state: 'missing',
      reason: 'node_modules/electron/path.txt is missing'
    })

    const first = await runScript(dir, env)
    expect(first.stderr).toContain('Electron installed')
    expect(first.code).toBe(0)
    expect(leftInTemp(env)).toEqual([])
    // The real @electron/get asked for the checksums and the zip, nothing else.
    expect([...served.requests].sort()).toEqual(
      [`/v${VERSION}/${ZIP_NAME}`, `/v${VERSION}/SHASUMS256.txt`].sort()
    )
    expect(readFileSync(join(electronDir, 'path.txt'), 'utf8')).toBe(EXE)
    const binary = join(electronDir, 'dist', EXE)
    expect(existsSync(binary)).toBe(true)
    expect(electronStatus({ electronDir, env })).toEqual({ state: 'ready', binary, via: 'installed' })

    // With the binary there: no installer, no request; the command runs with ELECTRON_EXEC_PATH.
    const second = await runScript(dir, env, ['node -e "console.log(process.env.ELECTRON_EXEC_PATH)"'])
    expect(second.code).toBe(0)
    expect(second.stderr).toBe('')
    expect(second.stdout.trim()).toBe(binary)
    expect(served.requests).toHaveLength(2)
  })

  it('a zip that does not match the served sums is refused and nothing is installed', async () => {
    const { dir, electronDir } = freshProject()
    const files = standInRelease()
    files[`/v${VERSION}/SHASUMS256.txt`] = `${'0'.repeat(64)} *${ZIP_NAME}\n`
    served = await mirror(files)
    const env = cleanEnv({
      ELECTRON_MIRROR: served.url,
      electron_use_remote_checksums: '1',
      electron_config_cache: join(dir, 'cache')
    })
    const run = await runScript(dir, env)
    expect(run.code).toBe(1)
    expectOneParagraph(run.stderr)
    expect(existsSync(join(electronDir, 'path.txt'))).toBe(false)
    expect(leftInTemp(env)).toEqual([])
  })

  it('a mirror that answers 404 → exits 1 within seconds with the paragraph and the reason', async () => {
    const { dir } = freshProject()
    served = await mirror({})
    const env = cleanEnv({ ELECTRON_MIRROR: served.url, electron_config_cache: join(dir, 'cache') })
    const run = await runScript(dir, env)
    expect(run.code).toBe(1)
    expect(run.ms).toBeLessThan(10_000)
    expectOneParagraph(run.stderr)
    expect(flat(run.stderr)).toContain('Response code 404 (Not Found)')
    expect(run.stdout).toBe('')
  })

  it('a mirror on a closed port → exits 1 within seconds with the paragraph', async () => {
    const { dir } = freshProject()
    const closed = await mirror({})
    const url = closed.url
    await closed.close()
    const env = cleanEnv({ ELECTRON_MIRROR: url, electron_config_cache: join(dir, 'cache') })
    const run = await runScript(dir, env)
    expect(run.code).toBe(1)
    expect(run.ms).toBeLessThan(10_000)
    expectOneParagraph(run.stderr)
    expect(flat(run.stderr)).toContain('could not be reached')
  })

  it('a mirror that never answers → the time limit stops the installer', async () => {
    const { dir } = freshProject()
    served = await mirror({}, 'hang')
    const env = cleanEnv({
      ELECTRON_MIRROR: served.url,
      electron_config_cache: join(dir, 'cache'),
      AGENT_DESK_ELECTRON_INSTALL_TIMEOUT_MS: '8000'
    })
    const run = await runScript(dir, env)
    expect(run.code).toBe(1)
    expect(run.ms).toBeLessThan(20_000)
    expectOneParagraph(run.stderr)
    expect(flat(run.stderr)).toContain('did not finish within 8 s')
    expect(served.requests.length).toBeGreaterThan(0)
    // Stopped in its download: what it had begun in the temp folder went with its own folder.
    expect(leftInTemp(env)).toEqual([])
  })
})

describe('ensure-electron: a binary the user points at', () => {
  it('ELECTRON_OVERRIDE_DIST_PATH with the executable → used as is, nothing downloaded, handed to the command', async () => {
    const { dir } = freshProject()
    const dist = temp()
    writeFileSync(join(dist, EXE), '#!/bin/sh\n')
    chmodSync(join(dist, EXE), 0o755)
    // A mirror that would fail: reaching it would be a bug.
    const env = cleanEnv({ ELECTRON_OVERRIDE_DIST_PATH: dist, ELECTRON_MIRROR: 'http://127.0.0.1:9/' })
    const run = await runScript(dir, env, ['node -e "console.log(process.env.ELECTRON_EXEC_PATH)"'])
    expect(run.code).toBe(0)
    expect(run.stdout.trim()).toBe(join(dist, EXE))
  })

  it('ELECTRON_OVERRIDE_DIST_PATH without one → a clear paragraph, no download attempt', async () => {
    const { dir } = freshProject()
    const dist = temp()
    const env = cleanEnv({ ELECTRON_OVERRIDE_DIST_PATH: dist })
    const run = await runScript(dir, env)
    expect(run.code).toBe(1)
    expect(flat(run.stderr)).toContain(
      `ELECTRON_OVERRIDE_DIST_PATH is set to ${dist}, which holds no Electron binary`
    )
    expect(run.stderr).not.toMatch(/^\s+at /m)
  })

  it('the command’s exit code is passed on', async () => {
    const { dir } = freshProject()
    const dist = temp()
    writeFileSync(join(dist, EXE), '#!/bin/sh\n')
    chmodSync(join(dist, EXE), 0o755)
    const run = await runScript(dir, cleanEnv({ ELECTRON_OVERRIDE_DIST_PATH: dist }), [
      'node -e "process.exit(7)"'
    ])
    expect(run.code).toBe(7)
  })

  it('no electron package in the folder → says to run npm ci', async () => {
    const dir = temp()
    const run = await runScript(dir, cleanEnv({}))
    expect(run.code).toBe(1)
    expect(flat(run.stderr)).toContain('the electron package is not installed in this folder')
  })
})

describe('ensure-electron: the pieces', () => {
  it('names the executable per platform as Electron’s installer does', () => {
    expect(platformPath('linux')).toBe('electron')
    expect(platformPath('win32')).toBe('electron.exe')
    expect(platformPath('darwin')).toBe('Electron.app/Contents/MacOS/Electron')
    expect(platformPath('aix')).toBeNull()
  })

  it('a binary of another Electron version is reinstalled', () => {
    const { electronDir } = freshProject()
    mkdirSync(join(electronDir, 'dist'))
    writeFileSync(join(electronDir, 'dist', EXE), '#!/bin/sh\n')
    chmodSync(join(electronDir, 'dist', EXE), 0o755)
    writeFileSync(join(electronDir, 'path.txt'), EXE)
    writeFileSync(join(electronDir, 'dist', 'version'), 'v1.2.3')
    expect(electronStatus({ electronDir, env: {} })).toMatchObject({ state: 'missing' })
    writeFileSync(join(electronDir, 'dist', 'version'), VERSION)
    expect(electronStatus({ electronDir, env: {} })).toMatchObject({ state: 'ready', via: 'installed' })
  })

  it('compares Node versions', () => {
    expect(nodeOlderThan('v20.20.2', '22.12.0')).toBe(true)
    expect(nodeOlderThan('v22.11.9', '22.12.0')).toBe(true)
    expect(nodeOlderThan('v22.12.0', '22.12.0')).toBe(false)
    expect(nodeOlderThan('v24.1.0', '22.12.0')).toBe(false)
  })

  it('keeps the installer’s message and drops its stack', () => {
    const out = [
      'HTTPError: Response code 404 (Not Found) for http://127.0.0.1:1/v45.4.1/SHASUMS256.txt',
      '    at FetchDownloader.download (file:///x/FetchDownloader.js:48:23)',
      '    at async downloadArtifact (file:///x/index.js:154:12)'
    ].join('\n')
    expect(installerReason(out)).toBe(
      'Response code 404 (Not Found) for http://127.0.0.1:1/v45.4.1/SHASUMS256.txt'
    )
    expect(installerReason('TypeError: fetch failed\n    at node:internal/deps/undici/undici:1:1')).toContain(
      'could not be reached'
    )
  })

  it('mentions the Node the installer wants only to users of an older Node', () => {
    const base = {
      version: '45.4.1',
      missing: 'node_modules/electron/path.txt is missing',
      reason: 'fetch failed'
    }
    expect(failureMessage({ ...base, nodeVersion: 'v20.20.2' })).toMatch(
      /Node\s+22\.12\.0 or newer; this is Node\s+20\.20\.2/
    )
    expect(failureMessage({ ...base, nodeVersion: 'v22.12.0' })).not.toContain('22.12.0 or newer')
  })
})
