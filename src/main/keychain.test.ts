/**
 * Against the REAL Secret Service: run inside a D-Bus session with an unlocked gnome-keyring
 * (`npm test` does this; see the brief for the one-liner).
 */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { createKeychain, memoryKeychain, NO_KEYCHAIN_MESSAGE } from './keychain'
import { startOriginLikeServer, ORIGIN_DEFAULT_USER } from '../../test/servers/originLikeServer'
import { testCore, tempDir } from '../../test/support/mainCore'

const run = promisify(execFile)

describe('OS keychain (Secret Service)', () => {
  it('stores, reads back and deletes a secret', async () => {
    const service = `Agent Desk test ${randomBytes(4).toString('hex')}`
    const kc = await createKeychain(service)
    expect(kc.kind).toBe('os')
    expect(kc.message).toBeUndefined()
    const account = 'session:test'
    expect(await kc.get(account)).toBeNull()
    await kc.set(account, 'secret-value-1')
    // A second keychain object (as after a restart) reads what the first stored.
    const again = await createKeychain(service)
    expect(await again.get(account)).toBe('secret-value-1')
    await kc.delete(account)
    expect(await again.get(account)).toBeNull()
  })
})

describe('the session token in the OS keychain', () => {
  it('survives an app restart and is removed on sign-out', async () => {
    const service = `Agent Desk test ${randomBytes(4).toString('hex')}`
    const origin = await startOriginLikeServer()
    const dir = tempDir()
    try {
      const first = testCore({ userDataDir: dir, keychain: await createKeychain(service) })
      const profile = await first.call('profiles.save', { name: 'Origin', baseUrl: origin.url })
      const state = await first.call('session.signIn', { profileId: profile.id, ...ORIGIN_DEFAULT_USER })
      expect(state).toMatchObject({ status: 'signedIn', keychain: 'os' })
      expect(state.keychainMessage).toBeUndefined()
      await first.call('agents.create', { name: 'Kept', type: 'REACT', llm: { provider: 'p', model: 'm' } })
      await first.core.dispose()

      // Nothing secret on disk: the token is only in the keychain.
      const token = await (await createKeychain(service)).get(`session:${profile.id}`)
      expect(token).toBeTruthy()
      const { readdirSync, readFileSync, statSync } = await import('node:fs')
      for (const f of readdirSync(dir)) {
        const p = join(dir, f)
        if (statSync(p).isFile()) expect(readFileSync(p).includes(token ?? '')).toBe(false)
      }

      const second = testCore({ userDataDir: dir, keychain: await createKeychain(service) })
      const resumed = await second.call('session.get')
      expect(resumed).toMatchObject({ status: 'signedIn', profile: { id: profile.id } })
      expect((await second.call('agents.list')).data.map((a) => a.name)).toEqual(['Kept'])
      await second.call('session.signOut', { clearCache: false })
      expect(await (await createKeychain(service)).get(`session:${profile.id}`)).toBeNull()
      await second.core.dispose()

      const third = testCore({ userDataDir: dir, keychain: await createKeychain(service) })
      expect((await third.call('session.get')).status).toBe('signedOut')
      await third.core.dispose()
    } finally {
      await origin.close()
    }
  })
})

describe('fallback when no Secret Service can be reached', () => {
  it('uses memory for this run only and says so', async () => {
    const script = `
      const { createKeychain } = await import(${JSON.stringify(join(process.cwd(), 'src/main/keychain.ts'))})
      const kc = await createKeychain('Agent Desk fallback test', { probeTimeoutMs: 3000 })
      await kc.set('session:x', 'in-memory')
      process.stdout.write(JSON.stringify({ kind: kc.kind, message: kc.message, back: await kc.get('session:x') }))
    `
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: process.cwd(),
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent', DISPLAY: '' },
      timeout: 20_000
    })
    const out = JSON.parse(stdout) as { kind: string; message?: string; back: string | null }
    expect(out).toEqual({ kind: 'memory', message: NO_KEYCHAIN_MESSAGE, back: 'in-memory' })
  })

  it('memory keychain forgets nothing during the run and everything with the object', async () => {
    const kc = memoryKeychain()
    await kc.set('a', '1')
    expect(await kc.get('a')).toBe('1')
    await kc.delete('a')
    expect(await kc.get('a')).toBeNull()
    expect(await memoryKeychain().get('a')).toBeNull()
  })
})
