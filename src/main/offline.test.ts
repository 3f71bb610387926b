/**
 * Offline: a real server goes away and comes back on the same port. Reads answer from the cache,
 * writes wait in the outbox, and the outbox is replayed when the server answers again.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { startService } from '../service'
import { startOriginLikeServer, ORIGIN_DEFAULT_USER } from '../../test/servers/originLikeServer'
import { signedUp, testCore, tempDir, waitFor, type TestCore } from '../../test/support/mainCore'

type Service = Awaited<ReturnType<typeof startService>>
const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

/**
 * A service that can be stopped and started again on the same port with its data, and a core
 * signed up on it with `email`.
 */
async function signedUpOnService(
  email: string
): Promise<{ t: TestCore; service: { stop(): Promise<void>; start(): Promise<void> } }> {
  const dataDir = tempDir('agent-desk-svc-')
  const start = (port: number) => startService({ dataDir, port, scryptCost: 16, logger: () => undefined })
  let svc: Service = await start(0)
  const port = svc.port
  cleanup.push(() => svc.close())
  const t = testCore()
  cleanup.push(() => t.core.dispose())
  await signedUp(t, svc.url, email)
  return {
    t,
    service: {
      stop: () => svc.close(),
      start: async () => {
        svc = await start(port)
      }
    }
  }
}

describe('offline and the outbox', () => {
  it('reads from the cache, queues changes, and replays them when the server is back', async () => {
    const { t, service } = await signedUpOnService('o@b.co')
    const doc = await t.call('documents.create', {
      name: 'Q3',
      type: 'PDF',
      url: 'https://example.com/q3.pdf'
    })
    const online = await t.call('documents.list')
    expect(online).toMatchObject({ source: 'network', offline: false })

    await service.stop()

    const cached = await t.call('documents.list')
    expect(cached).toMatchObject({ source: 'cache', offline: true })
    expect(cached.data.map((d) => d.name)).toEqual(['Q3'])
    expect(cached.syncedAt).toBe(online.syncedAt)
    expect(
      t.events.some(
        (e) => e.event === 'connectivity.changed' && (e.payload as { online: boolean }).online === false
      )
    ).toBe(true)
    expect((await t.call('session.get')).connectivity.online).toBe(false)

    const renamed = await t.call('documents.rename', { id: doc.data.id, patch: { name: 'Q4' } })
    expect(renamed.status).toBe('queued')
    expect(renamed.data.name).toBe('Q4')
    const agent = await t.call('agents.create', {
      name: 'Offline bot',
      type: 'REACT',
      llm: { provider: 'p', model: 'm' }
    })
    expect(agent.status).toBe('queued')
    expect(agent.data.id).toMatch(/^local-/)
    const outbox = await t.call('outbox.list')
    expect(outbox.map((e) => e.label)).toEqual(['Rename document “Q3” to “Q4”', 'Create agent “Offline bot”'])
    expect(outbox.every((e) => e.status === 'pending')).toBe(true)
    expect(t.events.some((e) => e.event === 'outbox.changed')).toBe(true)
    const offlineDocs = await t.call('documents.list')
    expect(offlineDocs.data.map((d) => d.name)).toEqual(['Q4'])
    // A refusal is still a refusal offline: nothing is queued for bad input.
    expect((await t.fail('documents.rename', { id: doc.data.id, patch: { name: '' } })).kind).toBe(
      'validation'
    )

    await service.start()
    const conn = await t.call('session.reconnect')
    expect(conn.online).toBe(true)
    await waitFor(async () => (await t.call('outbox.list')).length === 0)

    const fromServer = await t.call('documents.get', { id: doc.data.id })
    expect(fromServer).toMatchObject({ source: 'network', data: { name: 'Q4' } })
    const agents = await t.call('agents.list')
    expect(agents.source).toBe('network')
    expect(agents.data.map((a) => a.name)).toEqual(['Offline bot'])
    expect(agents.data[0]?.id).not.toMatch(/^local-/)
    expect(t.events.some((e) => e.event === 'data.changed')).toBe(true)
    expect((await t.call('session.get')).connectivity.online).toBe(true)
  })

  it('keeps an item created offline first in a list read from the server while its create waits', async () => {
    const { t, service } = await signedUpOnService('f@b.co')
    const llm = { provider: 'p', model: 'm' }
    for (const name of ['Server one', 'Server two'])
      await t.call('agents.create', { name, type: 'REACT', llm })
    expect((await t.call('agents.list')).data).toHaveLength(2)
    await service.stop()
    expect((await t.call('agents.list')).offline).toBe(true)
    // Created offline with a prompt the server does not have: its replay is refused, so it stays.
    const local = await t.call('agents.create', {
      name: 'Offline bot',
      type: 'REACT',
      llm,
      promptId: '00000000-0000-4000-8000-000000000000'
    })
    expect(local.data.id).toMatch(/^local-/)
    await service.start()
    await t.call('session.reconnect')
    await waitFor(async () => (await t.call('outbox.list'))[0]?.status === 'failed')
    const listed = await t.call('agents.list')
    expect(listed.source).toBe('network')
    expect(listed.data.map((a) => a.name)).toEqual(['Offline bot', 'Server two', 'Server one'])
    expect(listed.data[0]?.id).toBe(local.data.id)
  })

  it('keeps a refused change as failed for retry or discard, and reconnects by itself', async () => {
    const origin = await startOriginLikeServer()
    cleanup.push(() => origin.close())
    const t = testCore()
    cleanup.push(() => t.core.dispose())
    const profile = await t.call('profiles.save', { name: 'Origin', baseUrl: origin.url })
    await t.call('session.signIn', { profileId: profile.id, ...ORIGIN_DEFAULT_USER })
    const a = await t.call('agents.create', {
      name: 'Keep',
      type: 'REACT',
      llm: { provider: 'p', model: 'm' }
    })
    await t.call('agents.list')

    origin.setMode('down')
    expect((await t.call('agents.list')).offline).toBe(true)
    // The origin has no PATCH /agents: the replay is refused and the entry stays, failed.
    const queued = await t.call('agents.update', { id: a.data.id, patch: { name: 'Renamed' } })
    expect(queued.status).toBe('queued')
    const del = await t.call('agents.create', {
      name: 'Temp',
      type: 'REACT',
      llm: { provider: 'p', model: 'm' }
    })
    expect(del.status).toBe('queued')

    origin.setMode('normal')
    // No explicit reconnect: the periodic probe notices the server is back.
    await waitFor(async () => {
      const entries = await t.call('outbox.list')
      return entries.length === 1 && entries[0]?.status === 'failed'
    })
    const [failed] = await t.call('outbox.list')
    expect(failed?.label).toBe('Change agent “Keep”')
    expect(failed?.error?.kind).toBe('not_offered')
    const retried = await t.call('outbox.retry', { id: failed?.id ?? '' })
    expect(retried[0]?.status).toBe('failed')
    expect(await t.call('outbox.discard', { id: failed?.id ?? '' })).toEqual([])
    const names = (await t.call('agents.list')).data.map((x) => x.name).sort()
    expect(names).toEqual(['Keep', 'Temp'])
  })
})
