/**
 * The reads a start asks for in the preload (`buildDeskApi` with the page's hash), over the real
 * core and the embedded service: what is asked, in what order, and that each answer is taken once.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { CHANNELS, EVENT_NAMES, buildDeskApi, type DeskApi, type EarlyRead, type Read } from '../shared/ipc'
import { testCore, type TestCore } from '../../test/support/mainCore'

const cores: TestCore[] = []
afterEach(async () => {
  while (cores.length) await cores.pop()?.core.dispose()
})

/** The preload's API over `core.invoke`, recording each call as `channel` or `channel (cache)`. */
function deskOver(t: TestCore, hash: string | undefined): { api: DeskApi; calls: string[] } {
  const calls: string[] = []
  const api = buildDeskApi(
    CHANNELS,
    EVENT_NAMES,
    (channel, input) => {
      calls.push((input as { cacheOnly?: boolean } | undefined)?.cacheOnly ? `${channel} (cache)` : channel)
      return t.core.invoke(channel, input)
    },
    () => () => undefined,
    hash
  ) as DeskApi
  return { api, calls }
}

async function settled<T>(r: EarlyRead<T> | undefined): Promise<T> {
  if (!r) throw new Error('no early read')
  return 'value' in r ? r.value : r.promise
}

describe('early reads of a start', () => {
  it('asks for the session and the opening list from the cache, and hands each over once', async () => {
    const t = testCore()
    cores.push(t)
    await t.call('session.startLocal')
    await t.call('tools.create', { name: 'Web search', type: 'SEARCH', description: 'Looks things up' })
    await t.call('tools.list') // in the cache now

    const { api, calls } = deskOver(t, '#/tools/abc?x=1')
    expect(calls).toEqual(['session.get', 'tools.list (cache)'])

    const session = await settled(api.early?.('session'))
    expect(session).toMatchObject({ status: 'signedIn' })
    const list = (await settled(api.early?.('list:tools'))) as Read<{ name?: string }[]>
    expect(list.source).toBe('cache')
    expect(list.data.map((x) => x.name)).toEqual(['Web search'])
    // Taken once; nothing was asked for a view that is not open.
    expect(api.early?.('session')).toBeUndefined()
    expect(api.early?.('list:tools')).toBeUndefined()
    expect(api.early?.('list:agents')).toBeUndefined()
    // An answer that has come is handed over as a value (the first render can use it).
    const again = deskOver(t, '#/tools')
    await new Promise((r) => setTimeout(r, 200))
    expect(again.api.early?.('list:tools')).toHaveProperty('value')
  })

  it('uses the agents list for an empty hash, nothing for a view without a list, nothing without a hash', async () => {
    const t = testCore()
    cores.push(t)
    expect(deskOver(t, '').calls).toEqual(['session.get', 'agents.list (cache)'])
    expect(deskOver(t, '#/outbox').calls).toEqual(['session.get'])
    expect(deskOver(t, '#/api-tokens/1').calls).toEqual(['session.get', 'apiTokens.list (cache)'])
    const plain = deskOver(t, undefined)
    expect(plain.calls).toEqual([])
    expect(plain.api.early?.('session')).toBeUndefined()
  })

  it('drops a read that failed, so the app asks again and sees the error itself', async () => {
    const t = testCore()
    cores.push(t)
    // Signed out: a list read is refused.
    const { api } = deskOver(t, '#/agents')
    await new Promise((r) => setTimeout(r, 200))
    expect(api.early?.('list:agents')).toBeUndefined()
    expect(await settled(api.early?.('session'))).toMatchObject({ status: 'signedOut' })
  })
})
