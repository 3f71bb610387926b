/**
 * Sign-in flows against a real origin-like server (FastAPI-shaped answers, only the document's
 * operations) and the embedded service: the token never reaches a result, partial answers never
 * blank what is known, a rejected credential ends the session.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  startOriginLikeServer,
  ORIGIN_DEFAULT_USER,
  type OriginLikeServer
} from '../../test/servers/originLikeServer'
import { startService } from '../service'
import { testCore, tempDir, type TestCore } from '../../test/support/mainCore'
import type { Agent } from '../shared/agent'
import { offlineStorePath, openOfflineStore, profileStoreFiles } from './offline'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

async function originCore(): Promise<{
  t: TestCore
  origin: OriginLikeServer
  profileId: string
  token: string
}> {
  const origin = await startOriginLikeServer()
  cleanup.push(() => origin.close())
  const t = testCore()
  cleanup.push(() => t.core.dispose())
  const profile = await t.call('profiles.save', { name: 'Origin', baseUrl: origin.url })
  const state = await t.call('session.signIn', {
    profileId: profile.id,
    email: ORIGIN_DEFAULT_USER.email,
    password: ORIGIN_DEFAULT_USER.password
  })
  expect(state.status).toBe('signedIn')
  expect(state.user).toMatchObject({ email: ORIGIN_DEFAULT_USER.email, name: ORIGIN_DEFAULT_USER.name })
  expect(state.authMethod).toBe('password')
  const token = await t.keychain.get(`session:${profile.id}`)
  expect(token).toBeTruthy()
  return { t, origin, profileId: profile.id, token: token ?? '' }
}

describe('ending a session', () => {
  const storeFiles = (t: TestCore) => {
    const dir = join(t.userDataDir, 'cache')
    return existsSync(dir) ? readdirSync(dir).filter((f) => f.includes('.sqlite')) : []
  }

  it('a sign-out that clears the cache answers once its files are gone; one that keeps it leaves them for the next sign-in', async () => {
    const { t, profileId } = await originCore()
    const bot = await t.call('agents.create', {
      name: 'Bot',
      type: 'REACT',
      llm: { provider: 'o', model: 'm' }
    })
    await t.call('agents.list')
    const sign = () =>
      t.call('session.signIn', {
        profileId,
        email: ORIGIN_DEFAULT_USER.email,
        password: ORIGIN_DEFAULT_USER.password
      })
    await t.call('session.signOut', { clearCache: false })
    // Signed in again at once (the store may still be closing): its list is there.
    await sign()
    expect((await t.call('agents.list', { cacheOnly: true })).data.map((a) => a.id)).toContain(bot.data.id)
    expect(storeFiles(t).some((f) => f.endsWith('.sqlite'))).toBe(true)
    await t.call('session.signOut', { clearCache: true })
    expect(storeFiles(t)).toEqual([])
    await sign()
    expect((await t.call('agents.list', { cacheOnly: true })).data).toEqual([])
  })
})

describe('removing a server profile', () => {
  it('ends its session and deletes what this computer kept of it, and nothing of another profile', async () => {
    const { t, profileId } = await originCore()
    await t.call('agents.create', { name: 'Bot', type: 'REACT', llm: { provider: 'o', model: 'm' } })
    await t.call('agents.list')
    const cache = join(t.userDataDir, 'cache')
    const files = () => readdirSync(cache).sort()
    // Another profile's store, and one of this profile's that another user left (with a file moved aside).
    const other = await t.call('profiles.save', { name: 'Other', baseUrl: 'https://other.example.com' })
    const otherFile = offlineStorePath(t.userDataDir, other.id, 'someone')
    const earlier = offlineStorePath(t.userDataDir, profileId, 'earlier-user')
    for (const file of [otherFile, earlier]) openOfflineStore(file).close()
    writeFileSync(`${earlier}.corrupt-2026-01-01T00-00-00-000Z`, 'damaged')
    const ours = files().filter((f) => f.startsWith(profileStoreFiles(t.userDataDir, profileId).prefix))
    expect(ours.filter((f) => f.endsWith('.sqlite'))).toHaveLength(2)

    await t.call('profiles.remove', { id: profileId })
    expect((await t.call('session.get')).status).toBe('signedOut')
    expect(await t.keychain.get(`session:${profileId}`)).toBeNull()
    expect((await t.call('profiles.list')).map((p) => p.id)).toEqual(['local', other.id])
    // The other profile's store, with its log (not yet let go by the driver): nothing of this one.
    expect(files().filter((f) => !f.startsWith(profileStoreFiles(t.userDataDir, other.id).prefix))).toEqual(
      []
    )
    expect(files()).toContain(otherFile.slice(cache.length + 1))
  })
})

describe('against an origin-like server', () => {
  it('never puts the session token in a result or an event', async () => {
    const { t, token } = await originCore()
    await t.call('session.get')
    const agent = await t.call('agents.create', {
      name: 'Bot',
      type: 'REACT',
      llm: { provider: 'openai', model: 'gpt' }
    })
    expect(agent.status).toBe('done')
    await t.call('agents.list')
    await t.call('agents.get', { id: agent.data.id })
    await t.call('tools.list')
    const created = await t.call('apiTokens.create', { description: 'CI' })
    expect(created.data.token).toBeTruthy()
    const listed = await t.call('apiTokens.list')
    expect(listed.data[0]).toMatchObject({ description: 'CI' })
    expect(listed.data[0]?.tokenPreview).toMatch(/••••/)
    expect(JSON.stringify(listed)).not.toContain(created.data.token)
    await t.call('apiTokens.get', { id: created.data.id })
    await t.call('outbox.list')
    await t.call('capabilities.get')
    for (const line of t.transcript) expect(line).not.toContain(token)
  })

  it('signs in with an API token, finds its user, and never echoes the token back', async () => {
    const { t, profileId } = await originCore()
    const created = await t.call('apiTokens.create', { description: 'desk' })
    const apiToken = created.data.token ?? ''
    await t.call('session.signOut', { clearCache: false })
    expect(await t.keychain.get(`session:${profileId}`)).toBeNull()

    const bad = await t.fail('session.signInWithToken', { profileId, token: 'nope-not-a-token' })
    expect(bad.kind).toBe('unauthorized')

    t.transcript.length = 0
    const state = await t.call('session.signInWithToken', { profileId, token: apiToken })
    expect(state).toMatchObject({ status: 'signedIn', authMethod: 'apiToken' })
    expect(state.user?.id).toBeTruthy()
    expect(await t.keychain.get(`session:${profileId}`)).toBe(apiToken)
    const tokens = await t.call('apiTokens.list')
    expect(tokens.data.length).toBeGreaterThan(0)
    // tags.create needs the user id: found from the token list.
    const tag = await t.call('tags.create', { name: 'ops', color: '#abc' })
    expect(tag.data).toMatchObject({ name: 'ops', color: '#AABBCC' })
    for (const line of t.transcript) expect(line).not.toContain(apiToken)
    // Reveal is the explicit exception.
    const mine = tokens.data.find((x) => x.description === 'desk')
    expect((await t.call('apiTokens.reveal', { id: String(mine?.id) })).token).toBe(apiToken)
  })

  it('merges partial answers instead of blanking known fields', async () => {
    const { t, origin } = await originCore()
    // documents: create lacks name; the server cannot list them (catalogue).
    const doc = await t.call('documents.create', {
      name: 'Q3 report',
      type: 'PDF',
      url: 'https://example.com/q3.pdf'
    })
    expect(doc.data.name).toBe('Q3 report')
    const docs = await t.call('documents.list')
    expect(docs.catalogue).toBe(true)
    expect(docs.data.map((d) => d.name)).toEqual(['Q3 report'])
    expect((await t.call('capabilities.get'))['documents.list']).toBe('not_offered')

    // agents: get/list lack tags; the tags known from create stay.
    const tag = await t.call('tags.create', { name: 'prod', color: '#0e8a16' })
    const agent = await t.call('agents.create', {
      name: 'Tagged',
      type: 'CHATVENDOR',
      llm: { provider: 'p', model: 'm' },
      tags: [tag.data.id]
    })
    expect(agent.data.tags?.map((x) => x.name)).toEqual(['prod'])
    const got = await t.call('agents.get', { id: agent.data.id })
    expect(got.data.tags?.map((x) => x.name)).toEqual(['prod'])
    const list = await t.call('agents.list')
    expect(list.data.find((a: Agent) => a.id === agent.data.id)?.tags?.map((x) => x.name)).toEqual(['prod'])

    // tools: the list has only id, name, type; details seen once stay.
    const toolId = origin.toolIds[0] ?? ''
    await t.call('tools.update', { id: toolId, patch: { description: 'Searches the web' } })
    const tools = await t.call('tools.list')
    expect(tools.data.find((x) => x.id === toolId)?.description).toBe('Searches the web')

    // agent-tool links have no id: keyed by agent and tool.
    const link = await t.call('agentTools.create', { agentId: agent.data.id, toolId })
    expect(link.data.id).toBe(`${agent.data.id}:${toolId}`)
    const links = await t.call('agentTools.list', { agentId: agent.data.id })
    expect(links.catalogue).toBe(true)
    expect(links.data.map((l) => l.toolId)).toEqual([toolId])

    // stale-while-revalidate: the cached copy answers at once.
    const cached = await t.call('agents.list', { cacheOnly: true })
    expect(cached.source).toBe('cache')
    expect(cached.data.some((a: Agent) => a.id === agent.data.id)).toBe(true)
    // A refusal is thrown (the form stays), not queued.
    expect((await t.fail('agents.update', { id: agent.data.id, patch: { name: 'x' } })).kind).toBe(
      'not_offered'
    )
  })
})

describe('session end', () => {
  it('ends the session when the server rejects the credential, and says why', async () => {
    const dataDir = tempDir('agent-desk-svc-')
    const svc = await startService({ dataDir, port: 0, scryptCost: 16, logger: () => undefined })
    cleanup.push(() => svc.close())
    const t = testCore()
    cleanup.push(() => t.core.dispose())
    const profile = await t.call('profiles.save', { name: 'Svc', baseUrl: svc.url })
    await t.call('session.signUp', {
      profileId: profile.id,
      email: 'a@b.co',
      password: 'password-1',
      name: 'Ann'
    })
    const tok = await t.call('apiTokens.create', { description: 'temp' })
    await t.call('session.signInWithToken', { profileId: profile.id, token: tok.data.token ?? '' })
    expect(await t.keychain.get(`session:${profile.id}`)).toBe(tok.data.token)
    // Deleting the token we are signed in with: the next call is refused.
    expect((await t.call('apiTokens.delete', { id: tok.data.id })).status).toBe('done')
    const err = await t.fail('agents.list')
    expect(err.kind).toBe('unauthorized')
    const state = await t.call('session.get')
    expect(state).toMatchObject({
      status: 'signedOut',
      endedReason: 'Your session ended. Sign in again to continue.'
    })
    expect(state.profile?.id).toBe(profile.id)
    expect(await t.keychain.get(`session:${profile.id}`)).toBeNull()
    expect(
      t.events.some(
        (e) => e.event === 'session.changed' && (e.payload as { status: string }).status === 'signedOut'
      )
    ).toBe(true)
  })
})
