/**
 * Issue 12 items 1, 4, 5 and 6 (client side), through the IPC table against real servers on
 * 127.0.0.1: the token stays with the origin that issued it, one header spelling (the misspelled
 * one only for a server found to need it, remembered per profile), an API token needs proof
 * before a session begins, and sign-out asks the server to revoke without waiting long.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  startOriginLikeServer,
  ORIGIN_DEFAULT_USER,
  type OriginLikeServer
} from '../../test/servers/originLikeServer'
import { startScriptedServer, type ScriptedServer } from '../../test/servers/scriptedServer'
import { testCore, type TestCore } from '../../test/support/mainCore'
import { createApiClient, memoryCapabilityStore } from './api/client'
import { AppError } from '../shared/errors'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

async function origin(header?: 'Authorization' | 'Autorization'): Promise<OriginLikeServer> {
  const s = await startOriginLikeServer(header ? { header } : {})
  cleanup.push(() => s.close())
  return s
}

async function scripted(): Promise<ScriptedServer> {
  const s = await startScriptedServer()
  cleanup.push(() => s.close())
  return s
}

function core(opts: Parameters<typeof testCore>[0] = {}): TestCore {
  const t = testCore(opts)
  cleanup.push(() => t.core.dispose())
  return t
}

async function signedIn(t: TestCore, server: OriginLikeServer): Promise<string> {
  const profile = await t.call('profiles.save', { name: 'Team', baseUrl: server.url })
  const state = await t.call('session.signIn', {
    profileId: profile.id,
    email: ORIGIN_DEFAULT_USER.email,
    password: ORIGIN_DEFAULT_USER.password
  })
  expect(state.status).toBe('signedIn')
  return profile.id
}

const carriesCredential = (r: { headers: Record<string, unknown> }) =>
  r.headers['authorization'] !== undefined || r.headers['autorization'] !== undefined

describe('the token is bound to its origin (item 1)', () => {
  it('changing the address ends the session; the other server never receives the token', async () => {
    const home = await origin()
    const other = await origin()
    const t = core()
    const profileId = await signedIn(t, home)
    const token = await t.keychain.get(`session:${profileId}`)
    expect(token).toBeTruthy()
    await t.call('agents.list')

    const moved = await t.call('profiles.save', { id: profileId, name: 'Team', baseUrl: other.url })
    expect(moved.baseUrl).toBe(other.url)
    const state = await t.call('session.get')
    expect(state.status).toBe('signedOut')
    expect(state.endedReason).toMatch(/address of “Team” changed.*sign in/)
    expect(await t.keychain.get(`session:${profileId}`)).toBeNull()

    // Whatever the renderer does next, nothing with a credential reaches the other origin.
    const attempts: [string, unknown][] = [
      ['agents.list', undefined],
      ['agents.create', { name: 'x', type: 'REACT', llm: { provider: 'p', model: 'm' } }],
      ['tools.list', undefined],
      ['apiTokens.list', undefined],
      ['documents.list', undefined],
      ['session.reconnect', undefined],
      ['outbox.list', undefined],
      ['session.signOut', { clearCache: false }],
      ['profiles.save', { id: profileId, name: 'Team', baseUrl: home.url }],
      ['agents.list', undefined],
      ['profiles.save', { id: profileId, name: 'Team', baseUrl: `${other.url}/` }],
      ['agents.list', undefined]
    ]
    for (const [channel, input] of attempts) await t.core.invoke(channel, input)
    expect(other.requests.filter(carriesCredential)).toEqual([])
    for (const r of other.requests) expect(JSON.stringify(r.headers)).not.toContain(token)
  })

  it('the transport refuses to attach a token to another origin (defence in depth)', async () => {
    const other = await scripted()
    const c = createApiClient({
      baseUrl: other.url,
      getToken: () => 'tok-issued-elsewhere',
      tokenOrigin: () => 'http://127.0.0.1:1',
      capabilities: memoryCapabilityStore()
    })
    const err = await c.agents.list().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AppError)
    expect((err as AppError).kind).toBe('signed_out')
    expect(other.requests).toHaveLength(0)
  })

  it('a restored session whose profile now points elsewhere is ended, not sent', async () => {
    const home = await origin()
    const other = await origin()
    const first = core()
    const profileId = await signedIn(first, home)
    await first.core.dispose()
    // profiles.json edited behind the app's back: same profile id, another origin.
    const file = join(first.userDataDir, 'profiles.json')
    const data = JSON.parse(readFileSync(file, 'utf8')) as { profiles: { baseUrl: string }[] }
    for (const p of data.profiles) p.baseUrl = other.url
    const { writeFileSync } = await import('node:fs')
    writeFileSync(file, JSON.stringify(data))
    const again = core({ userDataDir: first.userDataDir, keychain: first.keychain })
    expect((await again.call('session.get')).status).toBe('signedOut')
    await again.core.invoke('agents.list', undefined)
    expect(other.requests.filter(carriesCredential)).toEqual([])
    expect(await again.keychain.get(`session:${profileId}`)).toBeNull()
  })
})

describe('one header spelling (item 4)', () => {
  it('a server reading only `Autorization` is found once and remembered for the profile', async () => {
    const server = await origin('Autorization')
    const t = core()
    const profileId = await signedIn(t, server)
    await t.call('agents.list')
    await t.call('tools.list')
    const authed = server.requests.filter(carriesCredential)
    // Never both at once; `Authorization` tried once, refused, then `Autorization` alone.
    for (const r of authed) expect(r.headers['authorization'] && r.headers['autorization']).toBeFalsy()
    expect(authed.filter((r) => r.headers['authorization'] !== undefined)).toHaveLength(1)
    expect(authed.at(-1)?.headers['autorization']).toMatch(/^Bearer /)

    // Remembered across restarts (in profiles.json, written by the time the core has ended): the
    // next run sends `Autorization` alone from the first call.
    await t.core.dispose()
    const saved = JSON.parse(readFileSync(join(t.userDataDir, 'profiles.json'), 'utf8')) as {
      authHeaders: Record<string, string>
    }
    expect(saved.authHeaders[profileId]).toBe('Autorization')
    const before = server.requests.length
    const again = core({ userDataDir: t.userDataDir, keychain: t.keychain })
    await again.call('agents.list')
    const next = server.requests.slice(before).filter(carriesCredential)
    expect(next.length).toBeGreaterThan(0)
    for (const r of next) expect(r.headers['authorization']).toBeUndefined()
  })

  it('a server reading only `Authorization` never sees the misspelled header', async () => {
    const server = await origin('Authorization')
    const t = core()
    const profileId = await signedIn(t, server)
    await t.call('agents.list')
    await t.call('tools.list')
    const authed = server.requests.filter(carriesCredential)
    expect(authed.length).toBeGreaterThan(1)
    for (const r of authed) expect(r.headers['autorization']).toBeUndefined()
    await t.core.dispose()
    const saved = JSON.parse(readFileSync(join(t.userDataDir, 'profiles.json'), 'utf8')) as {
      authHeaders: Record<string, string>
    }
    expect(saved.authHeaders[profileId]).toBeUndefined()
  })
})

describe('API-token sign-in needs proof (item 5)', () => {
  const answers = {
    redirect: { status: 302, headers: { Location: 'https://login.example.com/' }, body: '' },
    html: { status: 200, headers: { 'Content-Type': 'text/html' }, body: '<html><body>Welcome</body></html>' }
  }
  for (const [name, answer] of Object.entries(answers)) {
    it(`a server answering everything with ${name} gives no session and no keychain entry`, async () => {
      const s = await scripted()
      s.fallback = answer
      const t = core()
      const profile = await t.call('profiles.save', { name: 'Odd', baseUrl: s.url })
      const err = await t.fail('session.signInWithToken', { profileId: profile.id, token: 'tok-odd-12345' })
      expect(err.message).toMatch(/^Could not sign in with this API token: /)
      if (name === 'redirect') expect(err.message).toContain('redirect (302)')
      expect(err.fields?.[0]?.field).toBe('token')
      expect((await t.call('session.get')).status).toBe('signedOut')
      expect(await t.keychain.get(`session:${profile.id}`)).toBeNull()
    })
  }
})

describe('sign-out on the server (item 6, client side)', () => {
  async function tokenSession(s: ScriptedServer, t: TestCore): Promise<string> {
    s.fallback = s.json(200, { success: true, data: [] })
    const profile = await t.call('profiles.save', { name: 'Scripted', baseUrl: s.url })
    await t.call('session.signInWithToken', { profileId: profile.id, token: 'tok-scripted-123' })
    return profile.id
  }

  it('calls POST /auth/sign-out with the token on the issuing origin, then forgets it', async () => {
    const s = await scripted()
    const t = core()
    const profileId = await tokenSession(s, t)
    s.fallback = s.json(200, { success: true, data: { revoked: true } })
    const before = s.requests.length
    const state = await t.call('session.signOut', { clearCache: false })
    expect(state.status).toBe('signedOut')
    const calls = s.requests.slice(before)
    expect(calls.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/v1/auth/sign-out'])
    expect(calls[0]?.headers['authorization']).toBe('Bearer tok-scripted-123')
    expect(calls[0]?.headers['autorization']).toBeUndefined()
    expect(await t.keychain.get(`session:${profileId}`)).toBeNull()
    expect((await t.call('capabilities.get'))['session.signOut']).toBeUndefined() // signed out: none
  })

  it('completes quickly when the server never answers', async () => {
    const s = await scripted()
    const t = core({ fetchTimeoutMs: 12_000 })
    const profileId = await tokenSession(s, t)
    s.fallback = 'hang'
    const started = Date.now()
    const state = await t.call('session.signOut', { clearCache: false })
    expect(Date.now() - started).toBeLessThan(6_000) // the sign-out deadline, not the 12 s one
    expect(state.status).toBe('signedOut')
    expect(await t.keychain.get(`session:${profileId}`)).toBeNull()
  })

  it('a server without the route: marked not offered, sign-out completes, not asked again', async () => {
    const server = await origin()
    const t = core()
    const profileId = await signedIn(t, server)
    const state = await t.call('session.signOut', { clearCache: false })
    expect(state.status).toBe('signedOut')
    expect(await t.keychain.get(`session:${profileId}`)).toBeNull()
    // Kept in profiles.json, written after the change (profiles.ts).
    const stored = () =>
      (
        JSON.parse(readFileSync(join(t.userDataDir, 'profiles.json'), 'utf8')) as {
          capabilities: Record<string, Record<string, string>>
        }
      ).capabilities[profileId]?.['session.signOut']
    await expect.poll(stored).toBe('not_offered')
    expect(server.requests.filter((r) => r.path === '/api/v1/auth/sign-out')).toHaveLength(1)
    await t.call('session.signIn', {
      profileId,
      email: ORIGIN_DEFAULT_USER.email,
      password: ORIGIN_DEFAULT_USER.password
    })
    await t.call('session.signOut', { clearCache: false })
    expect(server.requests.filter((r) => r.path === '/api/v1/auth/sign-out')).toHaveLength(1)
  })
})
