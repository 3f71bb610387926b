/**
 * electron-builder really packs the app with resources/packaging/electron-builder.json: a Linux
 * `dir` build (no installer, no download) of a copy of the project, with a stand-in Electron binary
 * that carries the fuse wire. Checks what no reading of the config can: the asar holds only the
 * built app and the production modules, the native binaries land in app.asar.unpacked and load from
 * there, and the fuses are flipped in the binary.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { basename, dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { extractAll, listPackage } from '@electron/asar'
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses'
import { Arch, Platform, build } from 'electron-builder'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'
// A fuse is the byte '0' (off) or '1' (on) in the wire.
const OFF = '0'.charCodeAt(0)
const ON = '1'.charCodeAt(0)
// Electron's own defaults: RunAsNode, -, NODE_OPTIONS, --inspect on; the rest off (the packager flips them).
const DEFAULT_WIRE = '10110001'

type Pkg = {
  name: string
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
}
const readPkg = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Pkg

/** The package directory Node would resolve `name` to from `fromDir`, or null. */
function resolvePackage(name: string, fromDir: string, top: string): string | null {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return candidate
    if (dir === top || dirname(dir) === dir) return null
  }
}

/**
 * Copies the production dependency closure into `dest/node_modules` as a real folder (the shared
 * install here is a symlink, which npm would list as outside the project). Optional dependencies are
 * taken where installed, as npm does.
 */
function copyProductionModules(dest: string): void {
  const modules = realpathSync(join(root, 'node_modules'))
  const top = dirname(modules)
  const seen = new Set<string>()
  const queue: string[] = [top]
  while (queue.length > 0) {
    const dir = queue.shift()!
    const pkg = readPkg(dir)
    const required = Object.keys(pkg.dependencies ?? {})
    const optional = Object.keys(pkg.optionalDependencies ?? {})
    for (const name of [...required, ...optional]) {
      const found = resolvePackage(name, dir, top)
      if (!found) {
        if (required.includes(name) && !optional.includes(name))
          throw new Error(`${name} (for ${pkg.name}) is not installed`)
        continue
      }
      if (seen.has(found)) continue
      seen.add(found)
      queue.push(found)
      cpSync(found, join(dest, relative(top, found)), {
        recursive: true,
        filter: (src) => src === found || !relative(found, src).split(sep).includes('node_modules')
      })
    }
  }
}

let project = ''
let appDir = ''
let extracted = ''

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'agent-desk-pack-'))
  // The project: package.json, a stand-in build in out/, the packaging resources, the modules.
  cpSync(join(root, 'package.json'), join(project, 'package.json'))
  cpSync(join(root, 'resources/packaging'), join(project, 'resources/packaging'), { recursive: true })
  mkdirSync(join(project, 'out/main'), { recursive: true })
  writeFileSync(join(project, 'out/main/index.js'), 'export const main = true\n')
  mkdirSync(join(project, 'src'), { recursive: true })
  writeFileSync(join(project, 'src/not-shipped.ts'), 'export {}\n')
  copyProductionModules(project)
  // A stand-in Electron distribution: an executable holding Electron's fuse sentinel and wire.
  const electronDist = join(project, 'electron-dist')
  mkdirSync(electronDist)
  const binary = Buffer.concat([
    Buffer.from('#!/bin/sh\nexit 0\n'),
    Buffer.from(SENTINEL),
    Buffer.from([1, DEFAULT_WIRE.length]),
    Buffer.from(DEFAULT_WIRE),
    Buffer.alloc(16)
  ])
  writeFileSync(join(electronDist, 'electron'), binary, { mode: 0o755 })
  writeFileSync(join(electronDist, 'LICENSE'), 'stand-in\n')

  const electronVersion = readPkg(join(root, 'node_modules/electron')) as Pkg & { version: string }
  await build({
    projectDir: project,
    targets: Platform.LINUX.createTarget('dir', Arch.x64),
    publish: 'never',
    config: {
      extends: join(project, 'resources/packaging/electron-builder.json'),
      electronDist,
      electronVersion: electronVersion.version,
      directories: { output: join(project, 'dist') }
    }
  })
  appDir = join(project, 'dist/linux-unpacked')
  extracted = join(project, 'extracted')
  extractAll(join(appDir, 'resources/app.asar'), extracted)
}, 300_000)

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true })
})

describe('packed app (linux dir build)', () => {
  it('the asar holds the built app, package.json and production modules only', () => {
    const entries = listPackage(join(appDir, 'resources/app.asar'), { isPack: false })
    const tops = new Set(entries.map((e) => e.split(/[\\/]/)[1]))
    expect([...tops].sort()).toEqual(['node_modules', 'out', 'package.json'])
    expect(entries.map((e) => e.split(sep).join('/'))).toContain('/out/main/index.js')
    const modules = new Set(entries.map((e) => e.split(/[\\/]/)[2]).filter(Boolean))
    for (const name of ['keytar', 'libsql', 'zod', 'electron-updater', 'electron-log'])
      expect(modules).toContain(name)
    for (const dev of ['electron', 'vue', 'vitest', 'electron-builder']) expect(modules).not.toContain(dev)
  })

  it('the native binaries are unpacked next to the asar', () => {
    const unpacked = join(appDir, 'resources/app.asar.unpacked/node_modules')
    expect(existsSync(join(unpacked, 'keytar/build/Release/keytar.node'))).toBe(true)
    const libsqlPlatform = readPkg(join(root, 'node_modules/libsql')).optionalDependencies ?? {}
    const installed = Object.keys(libsqlPlatform).filter((n) => existsSync(join(root, 'node_modules', n)))
    expect(installed.length).toBeGreaterThan(0)
    for (const name of installed) expect(existsSync(join(unpacked, name, 'index.node')), name).toBe(true)
  })

  it('keytar and libsql load from the packed app without a rebuild (N-API)', () => {
    // The asar contents with the unpacked files laid over them, as Electron's asar support sees them.
    cpSync(join(appDir, 'resources/app.asar.unpacked'), extracted, { recursive: true })
    const load = createRequire(join(extracted, 'package.json'))
    const Database = load('libsql') as new (path: string) => {
      prepare(sql: string): { get(): { x: number } }
      close(): void
    }
    const db = new Database(':memory:')
    expect(db.prepare('select 41 + 1 as x').get().x).toBe(42)
    db.close()
    const keytar = load('keytar') as { getPassword: unknown }
    expect(typeof keytar.getPassword).toBe('function')
  })

  it('the fuses are flipped in the packed binary', async () => {
    const wire = await getCurrentFuseWire(join(appDir, basename(readPkg(root).name)))
    expect(wire[FuseV1Options.RunAsNode]).toBe(OFF)
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(OFF)
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(OFF)
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(ON)
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(ON)
    expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(ON)
  })
})
