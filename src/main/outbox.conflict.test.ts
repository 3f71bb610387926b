/**
 * Lost updates: two clients edit the same tool on the embedded service while one of them is cut
 * off. The queued edit is not replayed over the other one's: it becomes a conflict the user
 * settles (keep theirs, take the server's), and edits of one's own never conflict with each other.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { startService } from '../service'
import { createApiClient, memoryCapabilityStore } from './api/client'
import { startOddProxy } from '../../test/servers/oddProxy'
import { testCore, tempDir, waitFor, type TestCore } from '../../test/support/mainCore'
import type { OutboxEntry } from '../shared/ipc'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

const ACCOUNT = { email: 'c@b.co', password: 'password-1', name: 'Cleo' }

async function twoClients() {
  const svc = await startService({
    dataDir: tempDir('agent-desk-svc-'),
    scryptCost: 16,
    logger: () => undefined
  })
  cleanup.push(() => svc.close())
  const proxy = await startOddProxy(svc.url)
  cleanup.push(() => proxy.close())
  const a: TestCore = testCore({ probeIntervalMs: 100 })
  cleanup.push(() => a.core.dispose())
  const profile = await a.call('profiles.save', { name: 'A', baseUrl: proxy.url })
  await a.call('session.signUp', { profileId: profile.id, ...ACCOUNT })
  let token: string | null = null
  const b = createApiClient({
    baseUrl: svc.url,
    getToken: () => token,
    capabilities: memoryCapabilityStore()
  })
  token = (await b.signIn(ACCOUNT)).token
  const created = await a.call('tools.create', { name: 'Shared', type: 'SEARCH', description: 'first' })
  const id = created.data.id
  await a.call('tools.list')
  const outbox = async () => (await a.call('outbox.list')) as OutboxEntry[]
  const cutOff = () => proxy.rules.push({ action: 'reset' })
  const reconnect = () => {
    proxy.rules.length = 0
  }
  return { a, b, id, outbox, cutOff, reconnect }
}

describe('a queued edit of an item someone else changed meanwhile', () => {
  it('becomes a conflict showing the server’s item; "take the server’s" drops the edit and refreshes', async () => {
    const { a, b, id, outbox, cutOff, reconnect } = await twoClients()
    cutOff()
    const mine = await a.call('tools.update', { id, patch: { name: 'From A' } })
    expect(mine.status).toBe('queued')
    await b.tools.update(id, { description: 'by B' })
    reconnect()
    await waitFor(async () => (await outbox())[0]?.status === 'conflict')
    const entry = (await outbox())[0] as OutboxEntry
    expect(entry.server).toMatchObject({ id, name: 'Shared', description: 'by B' })
    expect(entry.error?.message).toMatch(/Changed on the server since you edited it/)
    // Nothing was sent over B's change.
    expect((await b.tools.get(id)).name).toBe('Shared')

    await a.call('outbox.resolve', { id: entry.id, action: 'takeServer' })
    expect(await outbox()).toEqual([])
    const local = await a.call('tools.get', { id, cacheOnly: true })
    expect(local.data).toMatchObject({ name: 'Shared', description: 'by B' })
    expect(await b.tools.get(id)).toMatchObject({ name: 'Shared', description: 'by B' })
  })

  it('"keep mine" sends it anyway; two edits of one’s own in a row never conflict', async () => {
    const { a, b, id, outbox, cutOff, reconnect } = await twoClients()
    cutOff()
    await a.call('tools.update', { id, patch: { name: 'A1' } })
    await b.tools.update(id, { description: 'by B' })
    reconnect()
    await waitFor(async () => (await outbox())[0]?.status === 'conflict')
    const entry = (await outbox())[0] as OutboxEntry
    await a.call('outbox.resolve', { id: entry.id, action: 'sendAnyway' })
    await waitFor(async () => (await outbox()).length === 0)
    expect(await b.tools.get(id)).toMatchObject({ name: 'A1', description: 'by B' })

    // Offline again: two edits of the same tool replay one after the other without a conflict.
    await a.call('tools.list')
    cutOff()
    await a.call('tools.update', { id, patch: { name: 'A2' } })
    await a.call('tools.update', { id, patch: { description: 'A3' } })
    expect((await outbox()).map((e) => e.status)).toEqual(['pending', 'pending'])
    reconnect()
    await waitFor(async () => (await outbox()).length === 0)
    expect(await b.tools.get(id)).toMatchObject({ name: 'A2', description: 'A3' })
  })
})
