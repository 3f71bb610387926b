#!/usr/bin/env node
// `npm run dist [-- <electron-builder args>]`: builds the app (electron-vite) and the installers of
// this OS into dist/ with resources/packaging/electron-builder.json. `--publish never` unless the
// arguments (`--publish always`) or AGENT_DESK_PUBLISH say otherwise.
//
// Signing and notarisation read their secrets from the environment and are skipped, with one note
// line each, when absent:
//   macOS    CSC_LINK, CSC_KEY_PASSWORD (Developer ID .p12, base64 or path/URL)
//            APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD, APPLE_TEAM_ID (notarisation)
//   Windows  WIN_CSC_LINK, WIN_CSC_KEY_PASSWORD (Authenticode .pfx)
//
// Only the host architecture is built: the config sets npmRebuild false because keytar and libsql
// are N-API modules (ABI-stable across Node and Electron, so the binaries npm installed load in
// Electron unchanged), and npm installed them for this machine's CPU only. A release builds each
// architecture on its own runner (.github/workflows/release.yml).
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
export const CONFIG = 'resources/packaging/electron-builder.json'

const PLATFORM_FLAG = { darwin: '--mac', win32: '--win', linux: '--linux' }
const TARGETS = { darwin: ['dmg', 'zip'], win32: ['nsis'], linux: ['AppImage', 'deb'] }
const ARCH_FLAGS = ['--x64', '--arm64', '--ia32', '--armv7l', '--universal']
/** The signing and notarisation secrets this script reads from the environment. */
export const SIGNING_VARS = [
  'CSC_LINK',
  'CSC_KEY_PASSWORD',
  'APPLE_ID',
  'APPLE_APP_SPECIFIC_PASSWORD',
  'APPLE_TEAM_ID',
  'WIN_CSC_LINK',
  'WIN_CSC_KEY_PASSWORD'
]

const present = (env, name) => typeof env[name] === 'string' && env[name].trim() !== ''

/** The value of `--publish x`, `--publish=x` or `-p x` in args, else null. */
function publishArg(args) {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    if (a === '--publish' || a === '-p') return args[i + 1] ?? null
    if (a.startsWith('--publish=')) return a.slice('--publish='.length)
  }
  return null
}

/**
 * Decides how to run electron-builder; pure (no I/O), so a test can check every case.
 * @param {{ platform: string, arch: string, env: Record<string, string | undefined>, args: string[] }} input
 * @returns {{ builderArgs: string[], env: Record<string, string>, notes: string[], publish: string }}
 */
export function planDist({ platform, arch, env, args }) {
  const flag = PLATFORM_FLAG[platform]
  if (!flag) throw new Error(`npm run dist: no installers are configured for the platform "${platform}".`)
  const notes = []
  // CI passes an unset secret as an empty string; electron-builder would take "" for a certificate.
  const childEnv = {}
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue
    if (SIGNING_VARS.includes(k) && v.trim() === '') continue
    childEnv[k] = v
  }

  const fromArgs = publishArg(args)
  const publish = fromArgs ?? (present(env, 'AGENT_DESK_PUBLISH') ? env.AGENT_DESK_PUBLISH.trim() : 'never')
  if (!['never', 'always', 'onTag', 'onTagOrDraft'].includes(publish)) {
    throw new Error(
      `npm run dist: --publish must be never, always, onTag or onTagOrDraft (got "${publish}").`
    )
  }
  if (publish !== 'never' && !present(env, 'GH_TOKEN') && !present(env, 'GITHUB_TOKEN')) {
    throw new Error('npm run dist: publishing to GitHub releases needs GH_TOKEN in the environment.')
  }
  const passThrough = fromArgs === null ? [...args] : stripPublish(args)
  const archFlags = passThrough.filter((a) => ARCH_FLAGS.includes(a))
  const archArgs = archFlags.length > 0 ? [] : [`--${arch}`]

  const extraConfig = []
  if (platform === 'darwin') {
    const signing = present(env, 'CSC_LINK')
    if (!signing) {
      notes.push('not signing: CSC_LINK not set (the app is unsigned; Gatekeeper will ask before opening it)')
      childEnv.CSC_IDENTITY_AUTO_DISCOVERY = 'false'
    } else if (!present(env, 'CSC_KEY_PASSWORD')) {
      notes.push('signing: CSC_KEY_PASSWORD not set, opening the certificate without a password')
    }
    const missing = ['APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID'].filter(
      (k) => !present(env, k)
    )
    if (!signing) {
      notes.push('not notarising: the app is not signed')
      extraConfig.push('-c.mac.notarize=false')
    } else if (missing.length > 0) {
      notes.push(`not notarising: ${missing.join(', ')} not set`)
      extraConfig.push('-c.mac.notarize=false')
    }
  } else if (platform === 'win32') {
    if (!present(env, 'WIN_CSC_LINK')) {
      notes.push('not signing: WIN_CSC_LINK not set (the installer is unsigned; SmartScreen will warn)')
      childEnv.CSC_IDENTITY_AUTO_DISCOVERY = 'false'
      // electron-builder falls back to CSC_LINK (the macOS certificate) on Windows: never sign with it.
      delete childEnv.CSC_LINK
      delete childEnv.CSC_KEY_PASSWORD
    } else if (!present(env, 'WIN_CSC_KEY_PASSWORD')) {
      notes.push('signing: WIN_CSC_KEY_PASSWORD not set, opening the certificate without a password')
    }
  }

  const builderArgs = [
    '--config',
    CONFIG,
    flag,
    ...TARGETS[platform],
    ...archArgs,
    '--publish',
    publish,
    ...extraConfig,
    ...passThrough
  ]
  return { builderArgs, env: childEnv, notes, publish }
}

function stripPublish(args) {
  const out = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    if (a === '--publish' || a === '-p') i++
    else if (!a.startsWith('--publish=')) out.push(a)
  }
  return out
}

/** Path of a package's JavaScript bin, run with this Node (no shell, so it works alike on Windows). */
function binOf(pkg, name) {
  const dir = join(root, 'node_modules', pkg)
  const { bin } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  return join(dir, typeof bin === 'string' ? bin : bin[name])
}

function run(label, file, args, env) {
  console.log(`[dist] ${label}`)
  const r = spawnSync(process.execPath, [file, ...args], { cwd: root, env, stdio: 'inherit' })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let plan
  try {
    plan = planDist({
      platform: process.platform,
      arch: process.arch,
      env: process.env,
      args: process.argv.slice(2)
    })
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e))
    process.exit(1)
  }
  for (const note of plan.notes) console.log(`[dist] ${note}`)
  run('electron-vite build', binOf('electron-vite', 'electron-vite'), ['build'], plan.env)
  run(
    `electron-builder ${plan.builderArgs.join(' ')}`,
    binOf('electron-builder', 'electron-builder'),
    plan.builderArgs,
    plan.env
  )
}
