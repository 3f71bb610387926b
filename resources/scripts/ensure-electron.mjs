#!/usr/bin/env node
/**
 * Makes sure the Electron binary is there before `npm start` / `npm run dev` hand over to
 * electron-vite, then runs the given command.
 *
 *   node resources/scripts/ensure-electron.mjs ["command to run afterwards"]
 *
 * Since Electron 42 the `electron` package no longer downloads its binary at install time, and
 * electron-vite reads `node_modules/electron/path.txt` without ever triggering the download (it
 * stops with "Electron uninstall"). So, resolving `electron` from the current folder:
 * - `ELECTRON_OVERRIDE_DIST_PATH` set: its binary is used when it is there (nothing is downloaded);
 * - else `path.txt` and the binary it names present (and of this package's version): nothing to do;
 * - else the electron package's own installer (`install.js`) runs in a child process, with a time
 *   limit (`AGENT_DESK_ELECTRON_INSTALL_TIMEOUT_MS`, default 10 minutes). It honours the usual
 *   switches: `ELECTRON_MIRROR`, `ELECTRON_CUSTOM_DIR`, `electron_config_cache`,
 *   `ELECTRON_GET_USE_PROXY` with `HTTPS_PROXY`.
 * When that fails, it prints ONE paragraph (what is missing, the ways out) and exits with 1.
 *
 * The command afterwards runs through the shell, with `ELECTRON_EXEC_PATH` (read by electron-vite)
 * set to the binary found. Plain Node, no dependency: it must run before anything else works.
 */
import { spawn } from 'node:child_process'
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'

/** Node version Electron's installer (and @electron/get) declares. */
export const INSTALLER_NODE = '22.12.0'
export const DEFAULT_TIMEOUT_MS = 10 * 60_000
const PROGRESS_NOTE_AFTER_MS = 3000

/** The executable inside the dist folder, as Electron's install.js names it. */
export function platformPath(platform) {
  switch (platform) {
    case 'mas':
    case 'darwin':
      return 'Electron.app/Contents/MacOS/Electron'
    case 'freebsd':
    case 'openbsd':
    case 'linux':
      return 'electron'
    case 'win32':
      return 'electron.exe'
    default:
      return null
  }
}

/** The folder of the `electron` package as seen from `cwd`, or null when it is not installed. */
export function electronDirFrom(cwd) {
  try {
    return dirname(createRequire(join(cwd, 'package.json')).resolve('electron/package.json'))
  } catch {
    return null
  }
}

function usableFile(file, platform) {
  try {
    if (!statSync(file).isFile()) return false
    if (platform !== 'win32') accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

function readText(file) {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return null
  }
}

/**
 * Where things stand, without touching anything:
 * `{ state: 'ready', binary, via }` (via: 'override' | 'exec-path' | 'installed'),
 * `{ state: 'missing', reason }` (the installer should run), or
 * `{ state: 'unusable', reason }` (an explicit setting points nowhere: downloading would not help).
 */
export function electronStatus({ electronDir, env = process.env, platform = process.platform }) {
  const exe = platformPath(env.ELECTRON_INSTALL_PLATFORM || platform)
  if (!exe) return { state: 'unusable', reason: `Electron has no build for the platform "${platform}".` }
  if (env.ELECTRON_EXEC_PATH) {
    if (usableFile(env.ELECTRON_EXEC_PATH, platform)) {
      return { state: 'ready', binary: env.ELECTRON_EXEC_PATH, via: 'exec-path' }
    }
    return {
      state: 'unusable',
      reason: `ELECTRON_EXEC_PATH is set to ${env.ELECTRON_EXEC_PATH}, which is not an executable file.`
    }
  }
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const binary = join(env.ELECTRON_OVERRIDE_DIST_PATH, exe)
    if (usableFile(binary, platform)) return { state: 'ready', binary, via: 'override' }
    return {
      state: 'unusable',
      reason: `ELECTRON_OVERRIDE_DIST_PATH is set to ${env.ELECTRON_OVERRIDE_DIST_PATH}, which holds no Electron binary (${exe}).`
    }
  }
  const pathTxt = readText(join(electronDir, 'path.txt'))
  if (pathTxt === null || pathTxt.trim() === '') {
    return { state: 'missing', reason: 'node_modules/electron/path.txt is missing' }
  }
  const binary = join(electronDir, 'dist', pathTxt.trim())
  if (!usableFile(binary, platform)) {
    return { state: 'missing', reason: `node_modules/electron/dist/${pathTxt.trim()} is missing` }
  }
  const installed = readText(join(electronDir, 'dist', 'version'))
  const wanted = packageVersion(electronDir)
  if (installed !== null && wanted && installed.trim().replace(/^v/, '') !== wanted) {
    return {
      state: 'missing',
      reason: `the installed binary is Electron ${installed.trim()}, the package is ${wanted}`
    }
  }
  return { state: 'ready', binary, via: 'installed' }
}

export function packageVersion(electronDir) {
  try {
    return JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')).version ?? null
  } catch {
    return null
  }
}

/** True when `version` (e.g. "v20.20.2") is older than `min` (e.g. "22.12.0"). */
export function nodeOlderThan(version, min) {
  const a = version.replace(/^v/, '').split('.').map(Number)
  const b = min.split('.').map(Number)
  for (let i = 0; i < 3; i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0)
  }
  return false
}

/**
 * The one line worth showing from a failed installer's output: its error message, without the
 * stack (e.g. "Response code 404 (Not Found) for http://…", "fetch failed").
 */
export function installerReason(output) {
  const lines = output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('at ') && !/^Downloading .*\[/.test(l))
  const error = lines.find((l) => /^[A-Za-z]*Error\b/.test(l)) ?? lines[0]
  if (!error) return null
  const message = error.replace(/^[A-Za-z]*Error(\s*\[[A-Z_]+\])?:\s*/, '')
  if (message === 'fetch failed') return 'fetch failed: the download server could not be reached'
  return message.length > 300 ? `${message.slice(0, 297)}…` : message
}

function wrap(text, width = 100) {
  const out = []
  let line = ''
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  if (line) out.push(line)
  return out.join('\n')
}

/** The paragraph printed when the binary cannot be had. */
export function failureMessage({ version, missing, reason, timedOutAfterMs, nodeVersion = process.version }) {
  const what = version ? `the Electron ${version} binary` : 'the Electron binary'
  const failed =
    timedOutAfterMs !== undefined
      ? `its download did not finish within ${Math.round(timedOutAfterMs / 1000)} s`
      : `its download failed${reason ? ` (${reason.replace(/[.\s]+$/, '')})` : ''}`
  const node = nodeOlderThan(nodeVersion, INSTALLER_NODE)
    ? ` Electron's installer declares Node ${INSTALLER_NODE} or newer; this is Node ${nodeVersion.replace(/^v/, '')}, so if the download works and the install still fails, use a newer Node.`
    : ''
  return wrap(
    `Agent Desk cannot start: ${what} is not installed (${missing}) and ${failed}. ` +
      `Ways out: download it from a mirror you can reach (ELECTRON_MIRROR=https://your.mirror/electron/, ` +
      `with ELECTRON_CUSTOM_DIR if its folders are not named v${version ?? '<version>'}); ` +
      `go through an HTTPS proxy (ELECTRON_GET_USE_PROXY=1 with HTTPS_PROXY=http://proxy:port, ` +
      `GLOBAL_AGENT_HTTPS_PROXY for older installers); or use an Electron ${version ?? ''} you already ` +
      `have (ELECTRON_OVERRIDE_DIST_PATH=/folder/that/holds/the/electron/executable). Then run the command again.` +
      node
  )
}

/** The paragraph printed when an explicit setting points at no binary. */
export function unusableMessage(reason) {
  return wrap(
    `Agent Desk cannot start: ${reason} Point it at the folder (ELECTRON_OVERRIDE_DIST_PATH) or the file ` +
      `(ELECTRON_EXEC_PATH) of an Electron binary, or unset it to have the Electron package download its own.`
  )
}

/**
 * Runs the electron package's installer once: `{ ok, code, timedOut, output }`. Its output is
 * collected (not shown: a failure is summed up by the caller). It gets a temporary folder of its
 * own, removed when it ends: a download it was stopped in (the time limit) or that failed leaves
 * nothing behind in the system's temp folder.
 */
export function runInstaller({ electronDir, env = process.env, timeoutMs = DEFAULT_TIMEOUT_MS }) {
  return new Promise((resolve) => {
    const temp = mkdtempSync(join(tmpdir(), 'agent-desk-electron-'))
    const ended = (result) => {
      try {
        rmSync(temp, { recursive: true, force: true, maxRetries: 3 })
      } catch {
        // A file still held (Windows): the system's own temp cleanup takes it later.
      }
      resolve(result)
    }
    const child = spawn(process.execPath, [join(electronDir, 'install.js')], {
      cwd: electronDir,
      env: {
        ...env,
        ELECTRON_GET_NO_PROGRESS: env.ELECTRON_GET_NO_PROGRESS ?? '1',
        TMPDIR: temp,
        TMP: temp,
        TEMP: temp
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true
    })
    let output = ''
    const collect = (chunk) => {
      if (output.length < 64_000) output += chunk.toString()
    }
    child.stdout.on('data', collect)
    child.stderr.on('data', collect)
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      child.kill()
    }, timeoutMs)
    child.on('error', (e) => {
      clearTimeout(timer)
      ended({ ok: false, code: null, timedOut, output: `${output}\nError: ${e.message}` })
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      ended({ ok: code === 0 && !timedOut, code, timedOut, output })
    })
  })
}

/**
 * Ensures the binary: `{ ok: true, binary, installed }` or `{ ok: false, message }`.
 * `onSlow` is called once if the installer is still running after a few seconds.
 */
export async function ensureElectron({
  cwd = process.cwd(),
  env = process.env,
  platform = process.platform,
  timeoutMs = DEFAULT_TIMEOUT_MS,
  nodeVersion = process.version,
  onSlow
} = {}) {
  const electronDir = electronDirFrom(cwd)
  if (!electronDir) {
    return {
      ok: false,
      message: wrap(
        'Agent Desk cannot start: the electron package is not installed in this folder. Run "npm ci" ' +
          '(or "npm install") in the project folder first.'
      )
    }
  }
  const before = electronStatus({ electronDir, env, platform })
  if (before.state === 'ready') return { ok: true, binary: before.binary, installed: false, via: before.via }
  if (before.state === 'unusable') return { ok: false, message: unusableMessage(before.reason) }

  const version = packageVersion(electronDir)
  const slow = onSlow ? setTimeout(() => onSlow(version), PROGRESS_NOTE_AFTER_MS) : null
  const run = await runInstaller({ electronDir, env, timeoutMs })
  if (slow) clearTimeout(slow)
  const after = electronStatus({ electronDir, env, platform })
  if (run.ok && after.state === 'ready')
    return { ok: true, binary: after.binary, installed: true, via: after.via }
  return {
    ok: false,
    message: failureMessage({
      version,
      missing: before.reason,
      reason: run.ok
        ? `the installer ended but ${after.reason ?? 'left no binary'}`
        : installerReason(run.output),
      timedOutAfterMs: run.timedOut ? timeoutMs : undefined,
      nodeVersion
    })
  }
}

function timeoutFromEnv(env) {
  const n = Number(env.AGENT_DESK_ELECTRON_INSTALL_TIMEOUT_MS)
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_TIMEOUT_MS
}

async function main(argv) {
  const result = await ensureElectron({
    timeoutMs: timeoutFromEnv(process.env),
    // A note for the person waiting at a terminal; piped output gets the result only.
    onSlow: (version) =>
      process.stderr.isTTY &&
      process.stderr.write(`Fetching the Electron ${version ?? ''} binary (first start only)…\n`)
  })
  if (!result.ok) {
    process.stderr.write(`\n${result.message}\n\n`)
    process.exit(1)
  }
  if (result.installed) {
    process.stderr.write(`Electron installed: ${relative(process.cwd(), result.binary) || result.binary}\n`)
  }
  const command = argv.join(' ').trim()
  if (!command) return
  const child = spawn(command, {
    shell: true,
    stdio: 'inherit',
    env: { ...process.env, ELECTRON_EXEC_PATH: result.binary }
  })
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
  child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void main(process.argv.slice(2))
}
