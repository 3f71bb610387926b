import { afterEach, describe, expect, it } from 'vitest'
import { aboutText } from '../../shared/about'
import { testCore, type TestCore } from '../../../test/support/mainCore'
import { aboutInfo } from './about'

const cores: TestCore[] = []
afterEach(async () => {
  for (const t of cores.splice(0)) await t.core.dispose()
})

describe('About (channel app.about)', () => {
  it('answers through the IPC table with the versions and the data folder, signed in or not', async () => {
    const t = testCore()
    cores.push(t)
    const about = await t.call('app.about')
    expect(about).toEqual({
      name: 'Agent Desk',
      version: '0.0.0-test',
      // Plain Node (as in the web harness): no Electron, no Chromium.
      electron: null,
      chromium: null,
      node: process.versions.node,
      v8: process.versions.v8,
      platform: process.platform,
      arch: process.arch,
      dataDir: t.userDataDir
    })
    // Input is checked like every channel's.
    expect((await t.fail('app.about', { extra: 1 })).kind).toBe('validation')
  })

  it('reads Electron and Chromium from process.versions when they are there', () => {
    const a = aboutInfo({
      version: '1.2.3',
      userDataDir: '/home/me/.config/Agent Desk',
      versions: { electron: '45.4.1', chrome: '146.0.7000.1', node: '24.11.1', v8: '14.6.1' },
      platform: 'linux',
      arch: 'x64'
    })
    expect(a).toMatchObject({ electron: '45.4.1', chromium: '146.0.7000.1', node: '24.11.1' })
    expect(aboutText(a)).toBe(
      [
        'Agent Desk 1.2.3',
        'Electron: 45.4.1',
        'Chromium: 146.0.7000.1',
        'Node: 24.11.1',
        'V8: 14.6.1',
        'OS: linux x64',
        'Data folder: /home/me/.config/Agent Desk'
      ].join('\n')
    )
  })

  it('shows "—" for what is not known', () => {
    const text = aboutText(aboutInfo({ version: '1.0.0', userDataDir: '/d', versions: { node: '20.20.2' } }))
    expect(text).toContain('Electron: —')
    expect(text).toContain('Chromium: —')
    expect(text).toContain('V8: —')
  })
})
