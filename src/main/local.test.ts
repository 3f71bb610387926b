/** The Local workspace: the embedded service on a thread of its own, surviving an app restart and its thread's end. */
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import type { ClientRequest } from 'node:http'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { testCore, tempDir, waitFor, type TestCore } from '../../test/support/mainCore'
import { stoppableServiceThread, stopServiceThreads } from '../../test/support/serviceThread'
import { LIST_PAGE } from './api/listPaging'

const cores: TestCore[] = []
afterEach(async () => {
  while (cores.length) await cores.pop()?.core.dispose()
})

describe('Local workspace', () => {
  it('starts the embedded service, works, and resumes after a restart', async () => {
    const dir = tempDir()
    const t = testCore({ userDataDir: dir })
    cores.push(t)
    const state = await t.call('session.startLocal')
    expect(state.status).toBe('signedIn')
    expect(state.profile).toMatchObject({ id: 'local', kind: 'local', name: 'Local workspace' })
    expect(state.profile?.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(state.user?.email).toBe('local@agent-desk.local')
    expect(await t.keychain.get('session:local')).toBeTruthy()

    const created = await t.call('agents.create', {
      name: 'Local bot',
      type: 'REACT',
      llm: { provider: 'p', model: 'm' }
    })
    expect(created.status).toBe('done')
    const docs = await t.call('documents.create', {
      name: 'Notes',
      type: 'TXT',
      url: 'https://example.com/n.txt'
    })
    expect((await t.call('documents.list')).catalogue).toBeUndefined()
    expect((await t.call('documents.list')).data.map((d) => d.id)).toContain(docs.data.id)
    const list = await t.call('agents.list')
    expect(list).toMatchObject({ source: 'network', offline: false })
    expect(list.data.map((a) => a.name)).toEqual(['Local bot'])
    // A second start re-uses the running service.
    const again = await t.call('session.startLocal')
    expect(again.profile?.baseUrl).toBe(state.profile?.baseUrl)

    await t.core.dispose()
    cores.pop()

    // The app starts again on the same folder: signed in without a network call, then the
    // service comes back (maybe on another port) before the first API call.
    const t2 = testCore({ userDataDir: dir, keychain: t.keychain })
    cores.push(t2)
    const resumed = await t2.call('session.get')
    expect(resumed).toMatchObject({ status: 'signedIn', profile: { id: 'local' } })
    const cached = await t2.call('agents.list', { cacheOnly: true })
    expect(cached.data.map((a) => a.name)).toEqual(['Local bot'])
    const fresh = await t2.call('agents.list')
    expect(fresh.source).toBe('network')
    expect(fresh.data.map((a) => a.id)).toEqual([created.data.id])
    const profiles = await t2.call('profiles.list')
    expect(profiles[0]?.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)

    // Sign out with clearCache removes the local copy; signing in again starts fresh.
    const out = await t2.call('session.signOut', { clearCache: true })
    expect(out.status).toBe('signedOut')
    expect(await t2.keychain.get('session:local')).toBeNull()
    await t2.call('session.startLocal')
    const afterClear = await t2.call('agents.list', { cacheOnly: true })
    expect(afterClear.data).toEqual([])
    expect((await t2.call('agents.list')).data.map((a) => a.name)).toEqual(['Local bot'])
  })

  it('masks the session token wherever a server answer carries it, deep in any field', async () => {
    const t = testCore()
    cores.push(t)
    await t.call('session.startLocal')
    const token = (await t.keychain.get('session:local')) ?? ''
    expect(token.length).toBeGreaterThan(8)
    const tool = await t.call('tools.create', {
      name: 'Leaky',
      description: `pasted ${token} by mistake`,
      type: 'SEARCH',
      metadata: { nested: [{ note: token }], fine: 'kept' }
    })
    expect(tool.data.description).toBe('pasted •••• by mistake')
    const listed = await t.call('tools.list')
    const leaky = listed.data.find((x) => x.id === tool.data.id)
    expect(leaky?.description).toBe('pasted •••• by mistake')
    expect(leaky?.metadata).toEqual({ nested: [{ note: '••••' }], fine: 'kept' })
    expect(JSON.stringify(await t.call('tools.get', { id: tool.data.id }))).not.toContain(token)
    for (const line of t.transcript) expect(line).not.toContain(token)
  })

  it('lists from the Local workspace in pages, as from a remote server', async () => {
    // What main asks for, seen on Node's own channel for every HTTP request it starts.
    const paths: string[] = []
    const seen = (m: unknown) => paths.push((m as { request: ClientRequest }).request.path)
    subscribe('http.client.request.start', seen)
    try {
      const t = testCore()
      cores.push(t)
      const state = await t.call('session.startLocal')
      const api = `${state.profile?.baseUrl ?? ''}/api/v1`
      const token = (await t.keychain.get('session:local')) ?? ''
      const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }
      const body = JSON.stringify({ name: 'Paged', type: 'REACT', llm: { provider: 'p', model: 'm' } })
      for (let made = 0; made <= LIST_PAGE; made += 50) {
        const batch = Math.min(50, LIST_PAGE + 1 - made)
        await Promise.all(
          Array.from({ length: batch }, async () => {
            const res = await fetch(`${api}/agents`, { method: 'POST', headers, body })
            expect(res.status).toBe(200)
          })
        )
      }
      paths.length = 0
      const local = await t.call('agents.list')
      expect(local.data).toHaveLength(LIST_PAGE + 1)
      expect(paths.filter((p) => p.startsWith('/api/v1/agents?'))).toEqual([
        `/api/v1/agents?skip=0&take=${LIST_PAGE}`,
        `/api/v1/agents?skip=${LIST_PAGE}&take=${LIST_PAGE}`
      ])
    } finally {
      unsubscribe('http.client.request.start', seen)
    }
  })

  it('goes on after its service thread stops: started again at once, on a new port, signed in', async () => {
    const t = testCore({ serviceThread: stoppableServiceThread() })
    cores.push(t)
    const before = await t.call('session.startLocal')
    const made = await t.call('agents.create', {
      name: 'Kept',
      type: 'REACT',
      llm: { provider: 'p', model: 'm' }
    })
    expect(made.status).toBe('done')

    stopServiceThreads()
    const local = async () => (await t.call('profiles.list')).find((p) => p.id === 'local')?.baseUrl
    await waitFor(async () => (await local()) !== before.profile?.baseUrl)

    const again = await t.call('agents.create', {
      name: 'After',
      type: 'REACT',
      llm: { provider: 'p', model: 'm' }
    })
    expect(again.status).toBe('done')
    expect((await t.call('session.get')).status).toBe('signedIn')
    const list = await t.call('agents.list')
    expect(list.data.map((a) => a.name).sort()).toEqual(['After', 'Kept'])
  })

  it('starts its service with the app when the app resumes a Local workspace session, before any call', async () => {
    const dir = tempDir()
    const first = testCore({ userDataDir: dir })
    await first.call('session.startLocal')
    await first.core.dispose()
    const localUrl = () =>
      (JSON.parse(readFileSync(join(dir, 'profiles.json'), 'utf8')) as { localBaseUrl?: string }).localBaseUrl
    const before = localUrl()
    expect(before).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)

    // A new run of the app on the same folder: nothing is called, the service starts (a new port).
    cores.push(testCore({ userDataDir: dir, keychain: first.keychain }))
    await waitFor(() => localUrl() !== before)
    expect((await fetch(`${localUrl() ?? ''}/api/v1/agents`)).status).toBe(401)
  })
})
