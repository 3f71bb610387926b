import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CHANNELS } from '../shared/ipc'
import { handlers } from './handlers'
import { testCore, type TestCore } from '../../test/support/mainCore'

const cores: TestCore[] = []
function track(t: TestCore): TestCore {
  cores.push(t)
  return t
}
afterEach(async () => {
  while (cores.length) await cores.pop()?.core.dispose()
})

describe('the handler table', () => {
  it('has exactly one handler per channel of the IPC table', () => {
    expect(Object.keys(handlers).sort()).toEqual([...CHANNELS].sort())
    for (const c of CHANNELS) expect(typeof handlers[c]).toBe('function')
  })
})

describe('core.invoke', () => {
  it('refuses unknown channels, including prototype names', async () => {
    const t = track(testCore())
    for (const name of ['agents.explode', '__proto__', 'constructor', 'toString', '', 42]) {
      const r = await t.core.invoke(name as string, {})
      expect(r.ok).toBe(false)
      if (!r.ok) {
        expect(r.error.kind).toBe('validation')
        expect(r.error.code).toBe('unknown_channel')
      }
    }
  })

  it('validates input with the channel schema and names each field', async () => {
    const t = track(testCore())
    const err = await t.fail('session.signIn', { profileId: 'local', email: 'not-an-email', password: '' })
    expect(err.kind).toBe('validation')
    expect(err.fields).toEqual(
      expect.arrayContaining([
        { field: 'email', message: 'Enter a valid e-mail address' },
        { field: 'password', message: 'Enter your password' }
      ])
    )
    const nested = await t.fail('agents.create', {
      name: 'A',
      type: 'REACT',
      llm: { provider: 'x', model: '' }
    })
    expect(nested.fields).toEqual([{ field: 'llm.model', message: 'Enter a model' }])
    const extra = await t.fail('app.info', { surprise: true })
    expect(extra.kind).toBe('validation')
    const wrongType = await t.fail('agents.get', 'abc')
    expect(wrongType.kind).toBe('validation')
    expect(wrongType.fields?.[0]?.field).toBe('(body)')
  })

  it('answers signed-out calls with a typed error, not a crash', async () => {
    const t = track(testCore())
    const err = await t.fail('agents.list')
    expect(err.kind).toBe('signed_out')
    expect(await t.call('outbox.list')).toEqual([])
    expect(await t.call('capabilities.get')).toEqual({})
  })

  it('reports app info and opens only web addresses', async () => {
    const t = track(testCore())
    expect(await t.call('app.info')).toEqual({
      version: '0.0.0-test',
      platform: process.platform,
      mode: 'harness'
    })
    expect(await t.call('app.openExternal', { url: 'https://example.com/docs' })).toEqual({ opened: true })
    const refused = await t.fail('app.openExternal', { url: 'file:///etc/passwd' })
    expect(refused.kind).toBe('validation')
    expect(await t.fail('app.openExternal', { url: 'javascript:alert(1)' })).toMatchObject({
      kind: 'validation'
    })
    expect(t.opened).toEqual(['https://example.com/docs'])
  })

  it('converts an unexpected failure into an internal error with a safe message', async () => {
    const t = track(testCore())
    // A profiles.json that is a directory makes saving fail with a raw Node error.
    const { mkdirSync } = await import('node:fs')
    mkdirSync(join(t.userDataDir, 'profiles.json'), { recursive: true })
    const err = await t.fail('profiles.save', { name: 'X', baseUrl: 'https://x.example' })
    expect(err.kind).toBe('internal')
    expect(err.message).not.toMatch(/EISDIR|profiles\.json|\//)
  })
})

describe('profiles', () => {
  it('always lists the Local workspace and persists remote profiles atomically', async () => {
    const t = track(testCore())
    const initial = await t.call('profiles.list')
    expect(initial).toEqual([{ id: 'local', name: 'Local workspace', kind: 'local', baseUrl: '' }])
    const saved = await t.call('profiles.save', {
      name: ' Work ',
      baseUrl: 'https://ams.example.com/api/v1/'
    })
    expect(saved).toMatchObject({ name: 'Work', baseUrl: 'https://ams.example.com', kind: 'remote' })
    const renamed = await t.call('profiles.save', {
      id: saved.id,
      name: 'Work 2',
      baseUrl: 'https://ams.example.com'
    })
    expect(renamed.id).toBe(saved.id)
    const file = JSON.parse(readFileSync(join(t.userDataDir, 'profiles.json'), 'utf8')) as {
      profiles: unknown[]
    }
    expect(file.profiles).toEqual([
      { id: saved.id, name: 'Work 2', baseUrl: 'https://ams.example.com', kind: 'remote' }
    ])
    const { readdirSync } = await import('node:fs')
    expect(readdirSync(t.userDataDir).filter((f) => f.endsWith('.tmp'))).toEqual([])

    // A restart reads them back.
    await t.core.dispose()
    cores.pop()
    const t2 = track(testCore({ userDataDir: t.userDataDir }))
    expect((await t2.call('profiles.list')).map((p) => p.name)).toEqual(['Local workspace', 'Work 2'])
    expect(await t2.fail('profiles.remove', { id: 'local' })).toMatchObject({ kind: 'validation' })
    expect(await t2.fail('profiles.save', { id: 'local', name: 'x', baseUrl: 'http://x' })).toMatchObject({
      kind: 'validation'
    })
    expect(await t2.fail('profiles.remove', { id: 'nope' })).toMatchObject({ kind: 'not_found' })
    expect(await t2.call('profiles.remove', { id: saved.id })).toEqual({ ok: true })
    expect(await t2.call('profiles.list')).toHaveLength(1)
    const bad = await t2.fail('profiles.save', { name: 'x', baseUrl: 'ftp://x' })
    expect(bad.fields?.[0]?.field).toBe('baseUrl')
  })

  it('survives a damaged profiles.json', async () => {
    const dir = (await import('../../test/support/mainCore')).tempDir()
    const { writeFileSync } = await import('node:fs')
    writeFileSync(join(dir, 'profiles.json'), '{"profiles": [{"id": 5}], "users": "x"', 'utf8')
    const t = track(testCore({ userDataDir: dir }))
    expect(await t.call('profiles.list')).toHaveLength(1)
    expect((await t.call('session.get')).status).toBe('signedOut')
    expect(existsSync(join(dir, 'profiles.json'))).toBe(true)
  })
})
