/**
 * The failed-replay notification over a real core: a change queued while the server is down is
 * refused when the outbox replays; the watcher, fed by the core's own `outbox.changed` events,
 * asks for one notification while the window is hidden, and none again for that entry.
 */
import { afterEach, expect, it } from 'vitest'
import type { OutboxEntry } from '../../shared/ipc'
import { startOriginLikeServer, ORIGIN_DEFAULT_USER } from '../../../test/servers/originLikeServer'
import { testCore, waitFor } from '../../../test/support/mainCore'
import { FailedReplayWatcher } from './notify'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

it('notifies once when a queued change fails to replay while the window is hidden', async () => {
  const origin = await startOriginLikeServer()
  cleanup.push(() => origin.close())
  const t = testCore()
  cleanup.push(() => t.core.dispose())
  const shown: string[] = []
  const watcher = new FailedReplayWatcher(
    () => false,
    (title) => shown.push(title)
  )
  t.core.subscribe((event, payload) => {
    if (event === 'outbox.changed') watcher.update(payload as OutboxEntry[])
  })

  const profile = await t.call('profiles.save', { name: 'Origin', baseUrl: origin.url })
  await t.call('session.signIn', { profileId: profile.id, ...ORIGIN_DEFAULT_USER })
  const a = await t.call('agents.create', { name: 'Keep', type: 'REACT', llm: { provider: 'p', model: 'm' } })
  await t.call('agents.list')
  origin.setMode('down')
  expect((await t.call('agents.list')).offline).toBe(true)
  // The origin has no PATCH /agents: the replay will be refused.
  expect((await t.call('agents.update', { id: a.data.id, patch: { name: 'Renamed' } })).status).toBe('queued')
  expect(shown).toEqual([])

  origin.setMode('normal')
  await waitFor(() => shown.length > 0)
  expect(shown).toEqual(['1 change could not be sent'])

  // Retried and refused again: the same entry is not announced twice.
  const [failed] = await t.call('outbox.list')
  expect(failed?.status).toBe('failed')
  const retried = await t.call('outbox.retry', { id: failed?.id ?? '' })
  expect(retried[0]?.status).toBe('failed')
  await waitFor(async () => (await t.call('outbox.list'))[0]?.status === 'failed')
  expect(shown).toEqual(['1 change could not be sent'])
})
