/**
 * Tag colours against a stricter server (issue 12, item 13; decisions.md "Tag colour"): the client
 * sends only `#RRGGBB` upper case, and shows one canonical form whatever case the server answers.
 * The server here accepts ONLY the seven-character form (`#abc` is a 422) and answers lower case.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { startOriginLikeServer, ORIGIN_DEFAULT_USER } from '../../test/servers/originLikeServer'
import { testCore } from '../../test/support/mainCore'
import { createApiClient, memoryCapabilityStore } from './api/client'
import { Tag } from '../shared/tag'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

async function strictServer() {
  const origin = await startOriginLikeServer({ colors: 'strictLower' })
  cleanup.push(() => origin.close())
  return origin
}

describe('tag colours against a server that takes only #RRGGBB and answers lower case', () => {
  it('the server really refuses #abc and answers lower case (the premise)', async () => {
    const origin = await strictServer()
    const signIn = await fetch(`${origin.url}/api/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: ORIGIN_DEFAULT_USER.email, password: ORIGIN_DEFAULT_USER.password })
    })
    const { data } = (await signIn.json()) as { data: { token: string; user: { id: string } } }
    const post = (color: string) =>
      fetch(`${origin.url}/api/v1/tags`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${data.token}` },
        body: JSON.stringify({ name: 'x', color, userId: data.user.id })
      })
    expect((await post('#abc')).status).toBe(422)
    const ok = (await (await post('#A1B2C3')).json()) as { data: { color: string } }
    expect(ok.data.color).toBe('#a1b2c3')
  })

  it('through the IPC path: #abc typed creates the tag, shown as #AABBCC (also on an agent)', async () => {
    const origin = await strictServer()
    const t = testCore()
    cleanup.push(() => t.core.dispose())
    const profile = await t.call('profiles.save', { name: 'Strict', baseUrl: origin.url })
    await t.call('session.signIn', {
      profileId: profile.id,
      email: ORIGIN_DEFAULT_USER.email,
      password: ORIGIN_DEFAULT_USER.password
    })
    const tag = await t.call('tags.create', { name: 'ops', color: '#abc' })
    expect(tag.status).toBe('done')
    expect(tag.data.color).toBe('#AABBCC')
    const tag2 = await t.call('tags.create', { name: 'dev', color: '#0e8a16' })
    expect(tag2.data.color).toBe('#0E8A16')
    const agent = await t.call('agents.create', {
      name: 'Tagged',
      type: 'REACT',
      llm: { provider: 'p', model: 'm' },
      tags: [{ id: tag.data.id, name: 'ops', color: '#AABBCC' }]
    })
    expect(agent.data.tags?.map((x) => x.color)).toEqual(['#AABBCC'])
    // What the cache keeps (and a restart shows) is the canonical form too.
    const cached = await t.call('tags.get', { id: tag.data.id, cacheOnly: true })
    expect(cached.data.color).toBe('#AABBCC')
  })

  it('the client itself sends #RRGGBB: create and update with #abc work against the strict server', async () => {
    const origin = await strictServer()
    const signIn = await fetch(`${origin.url}/api/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: ORIGIN_DEFAULT_USER.email, password: ORIGIN_DEFAULT_USER.password })
    })
    const { data } = (await signIn.json()) as { data: { token: string; user: { id: string } } }
    const client = createApiClient({
      baseUrl: origin.url,
      getToken: () => data.token,
      capabilities: memoryCapabilityStore()
    })
    const tag = await client.tags.create({ name: 'x', color: '#abc', userId: data.user.id })
    expect(tag.color).toBe('#AABBCC')
  })

  it('the tolerant Tag schema shows any case of a colour in one form and keeps what is not a colour', () => {
    expect(Tag.parse({ id: 't', color: '#aabbcc' }).color).toBe('#AABBCC')
    expect(Tag.parse({ id: 't', color: '#abc' }).color).toBe('#AABBCC')
    expect(Tag.parse({ id: 't', color: 'red' }).color).toBe('red')
  })
})
