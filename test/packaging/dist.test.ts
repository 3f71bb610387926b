/**
 * `npm run dist` decisions (resources/scripts/dist.mjs planDist): which installers, which publish
 * mode, and which signing/notarisation steps are skipped when their secrets are absent. The plans
 * are fed to electron-builder's own CLI parser to prove it reads them as intended.
 */
import { describe, expect, it } from 'vitest'
import { Arch } from 'builder-util'
import {
  coerceTypes,
  configureBuildCommand,
  createYargs,
  normalizeOptions
} from 'electron-builder/out/builder'
import { CONFIG, planDist } from '../../resources/scripts/dist.mjs'

const MAC_SECRETS = {
  CSC_LINK: 'base64-p12',
  CSC_KEY_PASSWORD: 'pw',
  APPLE_ID: 'dev@example.com',
  APPLE_APP_SPECIFIC_PASSWORD: 'abcd-efgh',
  APPLE_TEAM_ID: 'TEAM123456'
}
const WIN_SECRETS = { WIN_CSC_LINK: 'base64-pfx', WIN_CSC_KEY_PASSWORD: 'pw' }

/** What electron-builder's CLI makes of the arguments: platform → arch → targets, publish, config. */
function asElectronBuilderSees(args: string[]) {
  const options = normalizeOptions(configureBuildCommand(createYargs()).parse(args))
  const targets = [...(options.targets?.entries() ?? [])].map(([platform, archs]) => ({
    platform: platform.name,
    archs: [...archs.entries()].map(([arch, names]) => [Arch[arch], names])
  }))
  const config = options.config
  return {
    targets,
    publish: options.publish,
    config: typeof config === 'object' ? coerceTypes(config ?? {}) : config
  }
}

describe('npm run dist: targets and publishing', () => {
  it('builds the installers of the current OS for the host architecture, never publishing by default', () => {
    const cases = [
      { platform: 'darwin', arch: 'arm64', flag: '--mac', targets: ['dmg', 'zip'], name: 'mac' },
      { platform: 'win32', arch: 'x64', flag: '--win', targets: ['nsis'], name: 'windows' },
      { platform: 'linux', arch: 'x64', flag: '--linux', targets: ['AppImage', 'deb'], name: 'linux' }
    ]
    for (const c of cases) {
      const plan = planDist({ platform: c.platform, arch: c.arch, env: {}, args: [] })
      expect(plan.publish).toBe('never')
      expect(plan.builderArgs.slice(0, 3)).toEqual(['--config', CONFIG, c.flag])
      const seen = asElectronBuilderSees(plan.builderArgs)
      expect(seen.targets).toEqual([{ platform: c.name, archs: [[c.arch, c.targets]] }])
      expect(seen.publish).toBe('never')
    }
  })

  it('an explicit architecture flag replaces the host one', () => {
    const plan = planDist({ platform: 'darwin', arch: 'arm64', env: {}, args: ['--x64'] })
    expect(asElectronBuilderSees(plan.builderArgs).targets).toEqual([
      { platform: 'mac', archs: [['x64', ['dmg', 'zip']]] }
    ])
  })

  it('publishes when told by argument or AGENT_DESK_PUBLISH, and needs GH_TOKEN then', () => {
    const byArg = planDist({
      platform: 'linux',
      arch: 'x64',
      env: { GH_TOKEN: 't' },
      args: ['--publish', 'always']
    })
    expect(byArg.publish).toBe('always')
    expect(byArg.builderArgs.filter((a) => a === '--publish')).toHaveLength(1)
    expect(asElectronBuilderSees(byArg.builderArgs).publish).toBe('always')
    const byEquals = planDist({
      platform: 'linux',
      arch: 'x64',
      env: { GH_TOKEN: 't' },
      args: ['--publish=always']
    })
    expect(byEquals.publish).toBe('always')
    const byEnv = planDist({
      platform: 'linux',
      arch: 'x64',
      env: { GH_TOKEN: 't', AGENT_DESK_PUBLISH: 'always' },
      args: []
    })
    expect(byEnv.publish).toBe('always')
    expect(() => planDist({ platform: 'linux', arch: 'x64', env: {}, args: ['-p', 'always'] })).toThrow(
      /GH_TOKEN/
    )
    expect(() =>
      planDist({ platform: 'linux', arch: 'x64', env: {}, args: ['--publish', 'sometimes'] })
    ).toThrow(/never, always/)
  })

  it('refuses a platform without installers with a clear message', () => {
    expect(() => planDist({ platform: 'freebsd', arch: 'x64', env: {}, args: [] })).toThrow(/freebsd/)
  })
})

describe('npm run dist: signing and notarisation from the environment', () => {
  it('macOS without secrets: unsigned, not notarised, one note each, and electron-builder told so', () => {
    const plan = planDist({ platform: 'darwin', arch: 'arm64', env: { PATH: '/bin' }, args: [] })
    expect(plan.notes).toEqual([
      expect.stringMatching(/^not signing: CSC_LINK not set/),
      expect.stringMatching(/^not notarising: the app is not signed/)
    ])
    expect(plan.env).toEqual({ PATH: '/bin', CSC_IDENTITY_AUTO_DISCOVERY: 'false' })
    expect(asElectronBuilderSees(plan.builderArgs).config).toEqual({
      extends: CONFIG,
      mac: { notarize: false }
    })
  })

  it('macOS signed but without the notarisation secrets names the missing ones', () => {
    const plan = planDist({
      platform: 'darwin',
      arch: 'x64',
      env: { CSC_LINK: 'p12', CSC_KEY_PASSWORD: 'pw', APPLE_ID: 'dev@example.com' },
      args: []
    })
    expect(plan.notes).toEqual(['not notarising: APPLE_APP_SPECIFIC_PASSWORD, APPLE_TEAM_ID not set'])
    expect(plan.env.CSC_IDENTITY_AUTO_DISCOVERY).toBeUndefined()
    expect(plan.builderArgs).toContain('-c.mac.notarize=false')
  })

  it('macOS with every secret signs and notarises, with no notes and no overrides', () => {
    const plan = planDist({ platform: 'darwin', arch: 'arm64', env: { ...MAC_SECRETS }, args: [] })
    expect(plan.notes).toEqual([])
    expect(plan.env).toEqual(MAC_SECRETS)
    expect(plan.builderArgs.some((a) => a.startsWith('-c.'))).toBe(false)
    expect(asElectronBuilderSees(plan.builderArgs).config).toBe(CONFIG)
  })

  it('empty secrets (how CI passes an unset one) count as absent and are not handed on', () => {
    const env = { CSC_LINK: '', CSC_KEY_PASSWORD: '', APPLE_ID: ' ', GH_TOKEN: 't' }
    const plan = planDist({ platform: 'darwin', arch: 'arm64', env, args: [] })
    expect(plan.notes[0]).toMatch(/^not signing: CSC_LINK not set/)
    expect(plan.env).toEqual({ GH_TOKEN: 't', CSC_IDENTITY_AUTO_DISCOVERY: 'false' })
  })

  it('Windows without WIN_CSC_LINK: unsigned with a note, and never signed with the macOS certificate', () => {
    const plan = planDist({ platform: 'win32', arch: 'x64', env: { ...MAC_SECRETS }, args: [] })
    expect(plan.notes).toEqual([expect.stringMatching(/^not signing: WIN_CSC_LINK not set/)])
    expect(plan.env.CSC_LINK).toBeUndefined()
    expect(plan.env.CSC_KEY_PASSWORD).toBeUndefined()
    expect(plan.env.CSC_IDENTITY_AUTO_DISCOVERY).toBe('false')
  })

  it('Windows with its certificate signs without notes', () => {
    const plan = planDist({ platform: 'win32', arch: 'x64', env: { ...WIN_SECRETS }, args: [] })
    expect(plan.notes).toEqual([])
    expect(plan.env).toEqual(WIN_SECRETS)
  })

  it('Linux has no signing step to skip', () => {
    const plan = planDist({ platform: 'linux', arch: 'x64', env: {}, args: [] })
    expect(plan.notes).toEqual([])
    expect(plan.env).toEqual({})
  })
})
