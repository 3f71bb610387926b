/** Settings › Offline data: `offline.info` tells the store's size, items and waiting changes; `offline.clear` empties the cache but keeps the outbox. */
import { afterEach, describe, expect, it } from 'vitest'
import { startService } from '../service'
import { testCore, tempDir, type TestCore } from '../../test/support/mainCore'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

describe('offline.info and offline.clear', () => {
  it('size and items grow with what is cached; clear empties the cache, keeps waiting changes, shrinks the file', async () => {
    const svc = await startService({
      dataDir: tempDir('agent-desk-svc-'),
      port: 0,
      scryptCost: 16,
      logger: () => {}
    })
    let up = true
    cleanup.push(async () => {
      if (up) await svc.close()
    })
    const t: TestCore = testCore()
    cleanup.push(() => t.core.dispose())
    expect(await t.call('offline.info')).toBeNull()

    const profile = await t.call('profiles.save', { name: 'Svc', baseUrl: svc.url })
    await t.call('session.signUp', {
      profileId: profile.id,
      email: 'o@b.co',
      password: 'password-1',
      name: 'O'
    })
    const empty = await t.call('offline.info')
    for (let i = 0; i < 200; i++)
      await t.call('tools.create', { name: `Tool ${i}`, type: 'SEARCH', description: 'x'.repeat(500) })
    await t.call('tools.list')
    const full = await t.call('offline.info')
    expect(full?.items).toBeGreaterThanOrEqual(200)
    expect(full?.bytes).toBeGreaterThan((empty?.bytes ?? 0) + 100_000)
    expect(full?.pending).toBe(0)

    // A change made offline waits in the outbox: clearing keeps it.
    await svc.close()
    up = false
    await t.call('tools.create', { name: 'Made offline', type: 'SEARCH', description: 'queued' })
    const cleared = await t.call('offline.clear')
    expect(cleared.items).toBe(0)
    expect(cleared.pending).toBe(1)
    expect(cleared.bytes).toBeLessThan(full?.bytes ?? 0)
    // (Sent as the server went away: its outcome is unknown, so it waits to be checked.)
    expect((await t.call('outbox.list')).map((e) => e.channel)).toEqual(['tools.create'])
  })
})
