/**
 * The electron-builder config (resources/packaging/electron-builder.json) against the JSON schema
 * electron-builder ships and against what issue 10 asks of the installers.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import Ajv from 'ajv'
import { minimatch } from 'minimatch'
import { describe, expect, it } from 'vitest'
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config'
import { DebugLogger } from 'builder-util'
import type { Configuration } from 'app-builder-lib'

const root = fileURLToPath(new URL('../..', import.meta.url))
const CONFIG_PATH = 'resources/packaging/electron-builder.json'

type Json = Record<string, unknown>
const readJson = (path: string): Json => JSON.parse(readFileSync(join(root, path), 'utf8')) as Json
const config = readJson(CONFIG_PATH)
const pkg = readJson('package.json')

function obj(value: unknown, what: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${what} is not an object`)
  return value as Json
}

// The validator electron-builder itself uses: ajv 8 (draft-07) on app-builder-lib/scheme.json.
// strict:false because the schema carries keywords ajv's strict mode rejects; no coerceTypes, so
// this is stricter than electron-builder's own run (which coerces "true" to true and so on).
const schema = readJson('node_modules/app-builder-lib/scheme.json')
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema)

function schemaErrors(candidate: unknown): string[] {
  return validate(candidate) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`)
}

describe('electron-builder config: schema', () => {
  it('is draft-07, the dialect the validator reads', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#')
  })

  it('validates against app-builder-lib/scheme.json', () => {
    expect(schemaErrors(config)).toEqual([])
  })

  it('a broken copy fails: unknown key, mistyped fuse name, wrong type', () => {
    const broken: Json[] = [
      { ...config, fileAssociation: [{ ext: 'txt' }] },
      { ...config, electronFuses: { ...obj(config.electronFuses, 'electronFuses'), runAsnode: false } },
      { ...config, nsis: { ...obj(config.nsis, 'nsis'), perMachine: 'no' } }
    ]
    for (const copy of broken) expect(schemaErrors(copy).length).toBeGreaterThan(0)
  })

  it("passes electron-builder's own load-and-validate step, which rejects a broken copy", async () => {
    const logger = new DebugLogger(false)
    const loaded = await getConfig(root, CONFIG_PATH, null)
    await expect(validateConfiguration(loaded, logger)).resolves.toBeUndefined()
    // A typo electron-builder must catch, merged over the file the way CLI `-c.` options are.
    const typo: Configuration = JSON.parse('{ "nsis": { "oneClik": true } }')
    const broken = await getConfig(root, CONFIG_PATH, typo)
    await expect(validateConfiguration(broken, logger)).rejects.toThrow(/does not match the API schema/)
  })
})

describe('electron-builder config: identity and files', () => {
  it('takes the app id from the config, product name and version from package.json', () => {
    expect(config.appId).toBe('io.agentdesk.app')
    expect(config).not.toHaveProperty('productName')
    expect(config).not.toHaveProperty('version')
    expect(pkg.productName).toBe('Agent Desk')
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+/)
  })

  it('has the metadata a deb needs in package.json (maintainer e-mail, homepage)', () => {
    expect(obj(pkg.author, 'author').email).toMatch(/^[^@\s]+@[^@\s]+$/)
    expect(pkg.homepage).toMatch(/^https:\/\//)
  })

  it('packs only the built app and package.json, into dist/, build resources under resources/packaging', () => {
    expect(config.files).toEqual(['out/**/*', 'package.json'])
    expect(config.directories).toEqual({ buildResources: 'resources/packaging', output: 'dist' })
  })

  it('publishes to GitHub releases, so latest*.yml feeds are written for electron-updater', () => {
    expect(config.publish).toEqual([{ provider: 'github', releaseType: 'draft' }])
  })
})

describe('electron-builder config: fuses', () => {
  const fuses = obj(config.electronFuses, 'electronFuses')
  it('RunAsNode off', () => expect(fuses.runAsNode).toBe(false))
  it('NODE_OPTIONS off', () => expect(fuses.enableNodeOptionsEnvironmentVariable).toBe(false))
  it('--inspect arguments off', () => expect(fuses.enableNodeCliInspectArguments).toBe(false))
  it('embedded asar integrity validation on', () =>
    expect(fuses.enableEmbeddedAsarIntegrityValidation).toBe(true))
  it('only load the app from the asar on', () => expect(fuses.onlyLoadAppFromAsar).toBe(true))
  it('cookie encryption on', () => expect(fuses.enableCookieEncryption).toBe(true))
  it('the app is packed as an asar (the two asar fuses need one)', () => expect(config.asar).toBe(true))
})

/** Every `.node` file under a folder, as a project-relative path with forward slashes. */
function nativeBinaries(dir: string): string[] {
  const abs = join(root, dir)
  if (!existsSync(abs)) return []
  return readdirSync(abs, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.node'))
    .map((f) => relative(root, join(abs, f)).split(sep).join('/'))
}

describe('electron-builder config: native modules', () => {
  const patterns = config.asarUnpack as string[]
  // electron-builder matches asarUnpack with minimatch and { dot: true } (app-builder-lib fileMatcher).
  const unpacked = (file: string) => patterns.some((p) => minimatch(file, p, { dot: true }))

  it('unpacks the real keytar binary', () => {
    const files = nativeBinaries('node_modules/keytar')
    expect(files).toContain('node_modules/keytar/build/Release/keytar.node')
    for (const f of files) expect(unpacked(f), f).toBe(true)
  })

  it('unpacks the real libsql binaries (libsql and its platform package under @libsql)', () => {
    const files = [...nativeBinaries('node_modules/libsql'), ...nativeBinaries('node_modules/@libsql')]
    expect(files.some((f) => f.startsWith('node_modules/@libsql/'))).toBe(true)
    for (const f of files) expect(unpacked(f), f).toBe(true)
  })

  it('does not unpack the app itself', () => {
    expect(unpacked('out/main/index.js')).toBe(false)
    // The Local workspace's service thread: Electron reads a worker's CommonJS from app.asar.
    expect(unpacked('out/main/serviceThread.cjs')).toBe(false)
    expect(unpacked('node_modules/zod/index.js')).toBe(false)
  })

  it('ships the binaries npm installed (N-API, so no rebuild for Electron)', () => {
    expect(config.npmRebuild).toBe(false)
    const keytar = readJson('node_modules/keytar/package.json')
    expect(obj(keytar.binary, 'keytar binary').napi_versions).toEqual([3])
  })
})

describe('electron-builder config: targets', () => {
  const targets = (platform: string) => obj(config[platform], platform).target
  it('macOS: dmg and zip, each for arm64 and x64', () => {
    expect(targets('mac')).toEqual([
      { target: 'dmg', arch: ['arm64', 'x64'] },
      { target: 'zip', arch: ['arm64', 'x64'] }
    ])
  })

  it('Windows: NSIS, per user, never asking for admin rights', () => {
    expect(targets('win')).toEqual([{ target: 'nsis', arch: ['x64'] }])
    const nsis = obj(config.nsis, 'nsis')
    expect(nsis.oneClick).toBe(true)
    expect(nsis.perMachine).toBe(false)
    expect(nsis.allowElevation).toBe(false)
  })

  it('Linux: AppImage and deb', () => {
    expect(targets('linux')).toEqual([
      { target: 'AppImage', arch: ['x64'] },
      { target: 'deb', arch: ['x64'] }
    ])
  })

  it('registers no file associations and no URL scheme (agent-desk stays internal)', () => {
    for (const scope of [config, ...['mac', 'win', 'linux'].map((p) => obj(config[p], p))]) {
      expect(scope).not.toHaveProperty('fileAssociations')
      expect(scope).not.toHaveProperty('protocols')
    }
  })

  it('points every platform at the committed icons', () => {
    expect(obj(config.mac, 'mac').icon).toBe('resources/packaging/icon.icns')
    expect(obj(config.win, 'win').icon).toBe('resources/packaging/icon.ico')
    expect(obj(config.linux, 'linux').icon).toBe('resources/packaging/icons')
    const files = ['icon.icns', 'icon.ico', 'icons/512x512.png'].map((f) => `resources/packaging/${f}`)
    for (const f of files) expect(existsSync(join(root, f)), f).toBe(true)
  })
})
