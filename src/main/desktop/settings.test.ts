import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { testCore, type TestCore } from '../../../test/support/mainCore'
import { tempDir } from '../../../test/support/tempDirs'
import { createDesktop } from './desktop'
import { DEFAULT_SETTINGS, SettingsStore } from './settings'

const temp = () => tempDir('agent-desk-settings-')

describe('settings.json', () => {
  it('starts from the defaults and keeps what is set, across instances', async () => {
    const dir = temp()
    expect(new SettingsStore(dir).get()).toEqual({ updates: 'on', theme: 'system', language: 'system' })
    expect(existsSync(join(dir, 'settings.json'))).toBe(false)
    const s = new SettingsStore(dir)
    expect(s.set({ theme: 'dark' })).toEqual({ updates: 'on', theme: 'dark', language: 'system' })
    s.set({ updates: 'off' })
    // Applied at once, written after: not in the file before the event loop turns.
    expect(s.get()).toEqual({ updates: 'off', theme: 'dark', language: 'system' })
    expect(existsSync(join(dir, 'settings.json'))).toBe(false)
    await s.saved()
    expect(new SettingsStore(dir).get()).toEqual({ updates: 'off', theme: 'dark', language: 'system' })
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'))).toEqual({
      updates: 'off',
      theme: 'dark',
      language: 'system'
    })
    // Written through a temporary file: none is left behind.
    expect(readdirSync(dir)).toEqual(['settings.json'])
  })

  it('refuses invalid values and unknown keys, changing nothing', async () => {
    const dir = temp()
    const s = new SettingsStore(dir)
    s.set({ theme: 'light' })
    expect(() => s.set({ theme: 'purple' } as never)).toThrow()
    expect(() => s.set({ colour: 'red' } as never)).toThrow()
    expect(() => s.set({ language: 'xx' } as never)).toThrow()
    await s.saved()
    expect(new SettingsStore(dir).get()).toEqual({ updates: 'on', theme: 'light', language: 'system' })
    s.set({ language: 'de' })
    await s.saved()
    expect(new SettingsStore(dir).get()).toEqual({ updates: 'on', theme: 'light', language: 'de' })
  })

  it('keeps the valid fields of a file with invalid ones', () => {
    const dir = temp()
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ updates: 'off', theme: 'neon', extra: 1 }))
    expect(new SettingsStore(dir).get()).toEqual({ updates: 'off', theme: 'system', language: 'system' })
    writeFileSync(join(dir, 'settings.json'), '[1, 2]')
    expect(new SettingsStore(dir).get()).toEqual(DEFAULT_SETTINGS)
  })

  it('sets a corrupt file aside and works on from the defaults', async () => {
    const dir = temp()
    writeFileSync(join(dir, 'settings.json'), '{"updates": "off", "the')
    const logged: string[] = []
    const s = new SettingsStore(dir, (m) => logged.push(m))
    expect(s.get()).toEqual(DEFAULT_SETTINGS)
    expect(logged[0]).toMatch(/is not valid JSON/)
    expect(readFileSync(join(dir, 'settings.json.corrupt'), 'utf8')).toBe('{"updates": "off", "the')
    s.set({ theme: 'dark' })
    await s.saved()
    expect(new SettingsStore(dir).get()).toEqual({ updates: 'on', theme: 'dark', language: 'system' })
  })
})

describe('the settings channels', () => {
  const cores: TestCore[] = []
  afterEach(async () => {
    while (cores.length) await cores.pop()?.core.dispose()
  })
  const make = (env: NodeJS.ProcessEnv = {}, policyDir = temp()) => {
    const userDataDir = temp()
    const t = testCore({
      userDataDir,
      desktop: createDesktop({ userDataDir, version: '1.0.0', env, policyDir })
    })
    cores.push(t)
    return t
  }

  it('answers settings.get and settings.set, persists and tells the windows', async () => {
    const t = make()
    expect(await t.call('settings.get')).toEqual({
      settings: { updates: 'on', theme: 'system', language: 'system' },
      managed: { updates: false, reason: null },
      updatesEnabled: true
    })
    const after = await t.call('settings.set', { updates: 'off', theme: 'light' })
    expect(after).toEqual({
      settings: { updates: 'off', theme: 'light', language: 'system' },
      managed: { updates: false, reason: null },
      updatesEnabled: false
    })
    expect(t.events.filter((e) => e.event === 'settings.changed').map((e) => e.payload)).toEqual([after])
    expect(JSON.parse(readFileSync(join(t.userDataDir, 'settings.json'), 'utf8'))).toEqual(after.settings)
    // Signed out or not, settings work (no session needed).
    expect((await t.call('session.get')).status).toBe('signedOut')
  })

  it('tells the page when settings.json cannot be written; the setting applies for this run', async () => {
    const t = make()
    // A folder where the file goes: the rename fails.
    mkdirSync(join(t.userDataDir, 'settings.json'))
    const err = await t.fail('settings.set', { theme: 'dark' })
    expect(err.kind).toBe('internal')
    expect((await t.call('settings.get')).settings.theme).toBe('dark')
    rmSync(join(t.userDataDir, 'settings.json'), { recursive: true })
    await t.call('settings.set', { language: 'de' })
    expect(JSON.parse(readFileSync(join(t.userDataDir, 'settings.json'), 'utf8'))).toMatchObject({
      theme: 'dark',
      language: 'de'
    })
  })

  it('validates settings.set and says which field is wrong', async () => {
    const t = make()
    const err = await t.fail('settings.set', { theme: 'sepia' })
    expect(err.kind).toBe('validation')
    expect(err.fields?.[0]?.field).toBe('theme')
    expect((await t.fail('settings.set', { autoQuit: true })).kind).toBe('validation')
    expect((await t.call('settings.get')).settings).toEqual(DEFAULT_SETTINGS)
  })

  it('shows updates as managed when the administrator turned them off, and keeps the switch', async () => {
    const policyDir = temp()
    writeFileSync(join(policyDir, 'policy.json'), JSON.stringify({ updates: 'off' }))
    const t = make({}, policyDir)
    const state = await t.call('settings.get')
    expect(state.managed).toEqual({
      updates: true,
      reason: `Turned off by your administrator (${join(policyDir, 'policy.json')}).`
    })
    expect(state.updatesEnabled).toBe(false)
    const err = await t.fail('settings.set', { updates: 'off' })
    expect(err).toMatchObject({
      kind: 'forbidden',
      message: expect.stringMatching(/^Updates are managed by your administrator/)
    })
    // Other settings can still change.
    expect((await t.call('settings.set', { theme: 'dark' })).settings.theme).toBe('dark')
    expect(await t.call('updates.check')).toMatchObject({ state: 'disabled', currentVersion: '1.0.0' })

    const byEnv = make({ AGENT_DESK_UPDATES: 'off' })
    expect((await byEnv.call('settings.get')).managed.reason).toMatch(/AGENT_DESK_UPDATES=off/)
  })

  it('has a default desktop on the user-data folder when none is given', async () => {
    const userDataDir = temp()
    const t = testCore({ userDataDir })
    cores.push(t)
    await t.call('settings.set', { theme: 'dark' })
    expect(new SettingsStore(userDataDir).get().theme).toBe('dark')
  })
})
