/**
 * A read that is on its way while the user deletes an item: the server answered the read with the
 * item, the answer is held back (test/servers/gateProxy.ts) until the delete is done, then let
 * through. The deleted item must not come back into the local copy, its lists or the catalogue.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { startService } from '../service'
import { startGateProxy, type GateRequest } from '../../test/servers/gateProxy'
import { signedUp, testCore, tempDir, waitFor, type TestCore } from '../../test/support/mainCore'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

async function setUp() {
  const svc = await startService({
    dataDir: tempDir('agent-desk-svc-'),
    scryptCost: 16,
    logger: () => undefined
  })
  cleanup.push(() => svc.close())
  const gate = await startGateProxy(svc.url)
  cleanup.push(() => gate.close())
  const t: TestCore = testCore()
  cleanup.push(() => t.core.dispose())
  await signedUp(t, gate.url, 'd@r.co')
  const tool = (await t.call('tools.create', { name: 'Doomed', type: 'SEARCH' })).data
  const kept = (await t.call('tools.create', { name: 'Kept', type: 'SEARCH' })).data
  /** Holds the server's answer to the next GET of `path` until `release()`. */
  function holdAnswer(path: string) {
    let release!: () => void
    const released = new Promise<void>((r) => (release = r))
    let held: GateRequest | undefined
    gate.after = async (r): Promise<'relay'> => {
      if (r.method !== 'GET' || r.path !== `/api/v1${path}` || held) return 'relay'
      held = r
      await released
      return 'relay'
    }
    return { release, answered: () => held?.upstreamStatus === 200 }
  }
  return { t, tool, kept, holdAnswer }
}

describe('a read answered before a delete and arriving after it', () => {
  it('a list does not bring the deleted item back', async () => {
    const { t, tool, kept, holdAnswer } = await setUp()
    const hold = holdAnswer('/tools')
    const reading = t.call('tools.list')
    await waitFor(hold.answered)
    expect((await t.call('tools.delete', { id: tool.id })).status).toBe('done')
    hold.release()
    const list = await reading
    expect(list.data.map((x) => x.name)).toEqual(['Kept'])
    const cached = await t.call('tools.list', { cacheOnly: true })
    expect(cached.data.map((x) => x.id)).toEqual([kept.id])
    expect((await t.fail('tools.get', { id: tool.id, cacheOnly: true })).kind).toBe('not_found')
  })

  it('nor does a list answered as the last two were (the same answer, remembered by the cache)', async () => {
    const { t, tool, kept, holdAnswer } = await setUp()
    await t.call('tools.list')
    await t.call('tools.list') // found stored as given: the same answer would be taken as stored
    const hold = holdAnswer('/tools')
    const reading = t.call('tools.list')
    await waitFor(hold.answered)
    await t.call('tools.delete', { id: tool.id })
    hold.release()
    expect((await reading).data.map((x) => x.id)).toEqual([kept.id])
    const cached = await t.call('tools.list', { cacheOnly: true })
    expect(cached.data.map((x) => x.id)).toEqual([kept.id])
    expect((await t.fail('tools.get', { id: tool.id, cacheOnly: true })).kind).toBe('not_found')
  })

  it('an item read says the item is gone and does not put it back', async () => {
    const { t, tool, kept, holdAnswer } = await setUp()
    await t.call('tools.list')
    const hold = holdAnswer(`/tools/${tool.id}`)
    const reading = t.core.invoke('tools.get', { id: tool.id })
    await waitFor(hold.answered)
    await t.call('tools.delete', { id: tool.id })
    hold.release()
    expect(await reading).toMatchObject({ ok: false, error: { kind: 'not_found' } })
    const cached = await t.call('tools.list', { cacheOnly: true })
    expect(cached.data.map((x) => x.id)).toEqual([kept.id])
    // A read that began after the delete is not affected by it: the kept item reads as usual.
    expect((await t.call('tools.get', { id: kept.id })).data.name).toBe('Kept')
  })
})
