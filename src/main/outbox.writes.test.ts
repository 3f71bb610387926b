/**
 * One click, one item: writes through a misbehaving front (test/servers/oddProxy.ts) of the real
 * embedded service, which ignores Idempotency-Key here (the worst case). Stored-then-hung and
 * stored-then-cut creates, slow writes beside fast reads, 429/503 with Retry-After, 502 forever.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { startService } from '../service'
import { createApiClient, memoryCapabilityStore } from './api/client'
import { startOddProxy, type OddProxy } from '../../test/servers/oddProxy'
import { testCore, tempDir, waitFor, type TestCore } from '../../test/support/mainCore'
import type { OutboxEntry } from '../shared/ipc'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

const ACCOUNT = { email: 'w@b.co', password: 'password-1', name: 'Wren' }

async function setUp(opts: Parameters<typeof testCore>[0] = {}) {
  const svc = await startService({
    dataDir: tempDir('agent-desk-svc-'),
    scryptCost: 16,
    logger: () => undefined
  })
  cleanup.push(() => svc.close())
  const proxy = await startOddProxy(svc.url)
  cleanup.push(() => proxy.close())
  const t: TestCore = testCore({ fetchTimeoutMs: 1000, writeTimeoutMs: 1500, probeIntervalMs: 100, ...opts })
  cleanup.push(() => t.core.dispose())
  const profile = await t.call('profiles.save', { name: 'Odd', baseUrl: proxy.url })
  await t.call('session.signUp', { profileId: profile.id, ...ACCOUNT })
  // What the server really holds, read past the proxy.
  const direct = createApiClient({
    baseUrl: svc.url,
    getToken: () => token,
    capabilities: memoryCapabilityStore()
  })
  let token: string | null = null
  token = (await direct.signIn(ACCOUNT)).token
  const serverTools = async (name: string) => (await direct.tools.list()).filter((x) => x.name === name)
  const outbox = async () => (await t.call('outbox.list')) as OutboxEntry[]
  return { svc, proxy, t, serverTools, outbox, direct }
}

const keysOf = (proxy: OddProxy, method: string, path: string) =>
  proxy.requests
    .filter((r) => r.method === method && r.path === `/api/v1${path}`)
    .map((r) => r.headers['idempotency-key'])

describe('one click makes one item, whatever the server does with the answer', () => {
  it('a create stored but never answered is found on the server and adopted, not sent again', async () => {
    const { proxy, t, serverTools, outbox } = await setUp({ writeTimeoutMs: 400 })
    proxy.rules.push({ method: 'POST', path: '/tools', action: 'forwardThenHang', times: 1 })
    const res = await t.call('tools.create', { name: 'Hung', type: 'SEARCH' })
    expect(res.status).toBe('queued')
    // The connection comes back (the probe), the replay looks the item up and adopts it.
    await waitFor(async () => (await outbox()).length === 0)
    expect(proxy.count('POST', '/tools')).toBe(1)
    const onServer = await serverTools('Hung')
    expect(onServer).toHaveLength(1)
    // The placeholder became the server's item in the local copy.
    const id = onServer[0]?.id as string
    expect((await t.call('tools.get', { id, cacheOnly: true })).data.name).toBe('Hung')
    const list = await t.call('tools.list')
    expect(list.data.filter((x) => x.name === 'Hung').map((x) => x.id)).toEqual([id])
  })

  it('a create stored and then cut off is uncertain, then adopted: one POST, one item', async () => {
    const { proxy, t, serverTools, outbox } = await setUp()
    proxy.rules.push({ method: 'POST', path: '/tools', action: 'forwardThenCut', times: 1 })
    const res = await t.call('tools.create', { name: 'Cut', type: 'SEARCH' })
    expect(res.status).toBe('queued')
    await waitFor(async () => (await outbox()).length === 0)
    expect(proxy.count('POST', '/tools')).toBe(1)
    expect(await serverTools('Cut')).toHaveLength(1)
  })

  it('an uncertain create the server does not have waits for the user; "send again" uses the same key', async () => {
    const { proxy, t, serverTools, outbox } = await setUp()
    proxy.rules.push({ method: 'POST', path: '/tools', action: 'reset', times: 1 })
    const res = await t.call('tools.create', { name: 'Lost', type: 'SEARCH' })
    expect(res.status).toBe('queued')
    // The probe brings it back online; the check finds nothing, so it stays uncertain.
    await waitFor(async () => (await t.call('session.get')).connectivity.online)
    await t.call('session.reconnect')
    await waitFor(async () => (await outbox())[0]?.status === 'uncertain')
    expect(proxy.count('POST', '/tools')).toBe(1)
    expect(await serverTools('Lost')).toHaveLength(0)
    const entry = (await outbox())[0] as OutboxEntry
    expect(entry.error?.message).toMatch(/may have reached the server/)

    await t.call('outbox.resolve', { id: entry.id, action: 'sendAnyway' })
    await waitFor(async () => (await outbox()).length === 0)
    expect(await serverTools('Lost')).toHaveLength(1)
    const keys = keysOf(proxy, 'POST', '/tools')
    expect(keys).toHaveLength(2)
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/)
    expect(keys[1]).toBe(keys[0])
  })

  it('writes slower than the read deadline while reads are fast: one click, one POST, one item', async () => {
    const { proxy, t, serverTools, outbox } = await setUp({ fetchTimeoutMs: 250, writeTimeoutMs: 2000 })
    proxy.rules.push({ method: 'POST', action: { delayMs: 600 } })
    const started = Date.now()
    const res = await t.call('tools.create', { name: 'Slow', type: 'SEARCH' })
    expect(Date.now() - started).toBeGreaterThanOrEqual(600)
    expect(res.status).toBe('done')
    // Reads stay fast and keep working; nothing is queued or sent again.
    for (let i = 0; i < 5; i++) await t.call('tools.list')
    await t.call('session.reconnect')
    expect(await outbox()).toEqual([])
    expect(proxy.count('POST', '/tools')).toBe(1)
    expect(await serverTools('Slow')).toHaveLength(1)
  })

  it('writes slower than even the write deadline: uncertain, never duplicated, adopted once stored', async () => {
    const { proxy, t, serverTools, outbox } = await setUp({ fetchTimeoutMs: 250, writeTimeoutMs: 300 })
    proxy.rules.push({ method: 'POST', action: { delayMs: 900 } })
    const res = await t.call('tools.create', { name: 'Slower', type: 'SEARCH' })
    expect(res.status).toBe('queued')
    // Probe, replays and reconnects while the server still works on it: no second POST.
    await waitFor(async () => (await serverTools('Slower')).length === 1)
    await t.call('session.reconnect')
    await waitFor(async () => (await outbox()).length === 0)
    expect(proxy.count('POST', '/tools')).toBe(1)
    expect(await serverTools('Slower')).toHaveLength(1)
  })
})

describe('replay of a queued change', () => {
  it('429 with Retry-After keeps it pending and sends it after the wait, with one stable key', async () => {
    const { proxy, t, serverTools, outbox } = await setUp({ replayBackoff: { baseMs: 100, capMs: 1000 } })
    proxy.rules.push({ method: 'POST', path: '/tools', action: { status: 503 }, times: 1 })
    proxy.rules.push({ method: 'POST', path: '/tools', action: { status: 429, retryAfter: '1' }, times: 2 })
    const res = await t.call('tools.create', { name: 'Later', type: 'SEARCH' })
    expect(res.status).toBe('queued')
    await waitFor(async () => {
      const e = (await outbox())[0]
      return !!e && e.status === 'pending' && !!e.retryAt && /try again in \d+ s/.test(e.error?.message ?? '')
    })
    await waitFor(async () => (await outbox()).length === 0, 15_000)
    expect(await serverTools('Later')).toHaveLength(1)
    const posts = proxy.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/tools')
    expect(posts).toHaveLength(4)
    // Retry-After: 1 was honoured after each 429.
    expect((posts[2]?.at ?? 0) - (posts[1]?.at ?? 0)).toBeGreaterThanOrEqual(950)
    expect((posts[3]?.at ?? 0) - (posts[2]?.at ?? 0)).toBeGreaterThanOrEqual(950)
    expect(new Set(posts.map((p) => p.headers['idempotency-key'])).size).toBe(1)
  })

  it('gives up after 5 attempts: failed with the reason, every attempt with the same key', async () => {
    const { proxy, t, outbox } = await setUp()
    proxy.rules.push({ method: 'POST', path: '/tools', action: { status: 502 } })
    const res = await t.call('tools.create', { name: 'Never', type: 'SEARCH' })
    expect(res.status).toBe('queued')
    await waitFor(async () => (await outbox())[0]?.status === 'failed', 15_000)
    const entry = (await outbox())[0] as OutboxEntry
    expect(entry.error?.message).toMatch(/^Not sent after 5 attempts: /)
    // The direct attempt plus 5 replays, then no more.
    await t.call('session.reconnect')
    const keys = keysOf(proxy, 'POST', '/tools')
    expect(keys).toHaveLength(6)
    expect(new Set(keys).size).toBe(1)
  })
})
