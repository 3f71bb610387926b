/**
 * Waiting with a way out (issue 12, item 20), through the core's IPC path against real servers on
 * 127.0.0.1: an origin-like server behind a gate that hangs on chosen requests.
 * - a call made with an id is cancelled by `calls.cancel`: it answers 'cancelled' at once and the
 *   server sees the request's socket closed;
 * - a cancelled sign-in begins no session;
 * - while a request hangs the connectivity says `slow` (the badge shows "Not answering"), and
 *   stops saying so when the request ends.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { startOriginLikeServer, ORIGIN_DEFAULT_USER } from '../../test/servers/originLikeServer'
import { startGateServer, type GateServer } from '../../test/servers/gateServer'
import { startScriptedServer } from '../../test/servers/scriptedServer'
import { testCore, waitFor, type TestCore } from '../../test/support/mainCore'
import type { Connectivity } from '../shared/ipc'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

async function gatedCore(
  opts: Parameters<typeof testCore>[0] = {}
): Promise<{ t: TestCore; gate: GateServer; profileId: string }> {
  const origin = await startOriginLikeServer()
  cleanup.push(() => origin.close())
  const t = testCore({ fetchTimeoutMs: 20_000, ...opts })
  cleanup.push(() => t.core.dispose())
  const gate = await startGateServer(origin.url)
  // Closed before the core is disposed: whatever still hangs fails at once.
  cleanup.push(() => gate.close())
  const profile = await t.call('profiles.save', { name: 'Gated', baseUrl: gate.url })
  return { t, gate, profileId: profile.id }
}

async function signIn(t: TestCore, profileId: string) {
  const state = await t.call('session.signIn', {
    profileId,
    email: ORIGIN_DEFAULT_USER.email,
    password: ORIGIN_DEFAULT_USER.password
  })
  expect(state.status).toBe('signedIn')
}

describe('calls.cancel', () => {
  it('frees a hung read at once and closes its request to the server', async () => {
    const { t, gate, profileId } = await gatedCore()
    await signIn(t, profileId)
    gate.hold = (r) => r.method === 'GET' && r.path === '/api/v1/agents'
    const pending = t.core.invoke('agents.list', undefined, 'list-1')
    await waitFor(() => gate.held.length === 1)
    const started = Date.now()
    expect(await t.call('calls.cancel', { callId: 'list-1' })).toEqual({ cancelled: true })
    const reply = await pending
    expect(Date.now() - started).toBeLessThan(1000)
    expect(reply.ok).toBe(false)
    if (!reply.ok) expect(reply.error).toMatchObject({ kind: 'cancelled', message: 'Cancelled' })
    await waitFor(() => gate.held[0]?.closedAt !== null, 2000)
    // The call is over: a second cancel finds nothing, and the next call works as usual.
    expect(await t.call('calls.cancel', { callId: 'list-1' })).toEqual({ cancelled: false })
    gate.hold = () => false
    expect((await t.call('agents.list')).source).toBe('network')
  })

  it('cancels a hung write without queueing it in the outbox', async () => {
    const { t, gate, profileId } = await gatedCore()
    await signIn(t, profileId)
    gate.hold = (r) => r.method === 'POST' && r.path === '/api/v1/agents'
    const pending = t.core.invoke(
      'agents.create',
      { name: 'Slow', type: 'REACT', llm: { provider: 'p', model: 'm' } },
      'save-1'
    )
    await waitFor(() => gate.held.length === 1)
    await t.call('calls.cancel', { callId: 'save-1' })
    const reply = await pending
    expect(!reply.ok && reply.error.kind).toBe('cancelled')
    await waitFor(() => gate.held[0]?.closedAt !== null, 2000)
    expect(await t.call('outbox.list')).toEqual([])
  })

  it('a cancelled sign-in begins no session', async () => {
    const { t, gate, profileId } = await gatedCore()
    gate.hold = (r) => r.path === '/api/v1/auth/sign-in'
    const pending = t.core.invoke(
      'session.signIn',
      { profileId, email: ORIGIN_DEFAULT_USER.email, password: ORIGIN_DEFAULT_USER.password },
      'signin-1'
    )
    await waitFor(() => gate.held.length === 1)
    await t.call('calls.cancel', { callId: 'signin-1' })
    const reply = await pending
    expect(!reply.ok && reply.error.kind).toBe('cancelled')
    await waitFor(() => gate.held[0]?.closedAt !== null, 2000)
    expect((await t.call('session.get')).status).toBe('signedOut')
    // The user can sign in (or open the Local workspace) right away.
    gate.hold = () => false
    await signIn(t, profileId)
  })

  it('a cancel that arrives before its call still cancels it; ids are checked', async () => {
    const { t, gate, profileId } = await gatedCore()
    await signIn(t, profileId)
    gate.hold = (r) => r.path === '/api/v1/agents'
    expect(await t.call('calls.cancel', { callId: 'early-1' })).toEqual({ cancelled: false })
    const reply = await t.core.invoke('agents.list', undefined, 'early-1')
    expect(!reply.ok && reply.error.kind).toBe('cancelled')
    expect(gate.held).toHaveLength(0)

    for (const bad of ['', 'has space', 'x'.repeat(65), 42, { id: 'a' }]) {
      const r = await t.core.invoke('session.get', undefined, bad)
      expect(!r.ok && r.error.code).toBe('bad_call_id')
    }
    expect((await t.fail('calls.cancel', { callId: '../../etc' })).kind).toBe('validation')
    // Two running calls cannot share an id.
    const first = t.core.invoke('agents.list', undefined, 'same')
    await waitFor(() => gate.held.length === 1)
    const second = await t.core.invoke('session.get', undefined, 'same')
    expect(!second.ok && second.error.code).toBe('bad_call_id')
    await t.call('calls.cancel', { callId: 'same' })
    expect((await first).ok).toBe(false)
  })
})

describe('the connectivity while a request hangs', () => {
  it('says slow (not plain online) while a call has waited past slowAfterMs, and clears it after', async () => {
    const { t, gate, profileId } = await gatedCore({ slowAfterMs: 300 })
    await signIn(t, profileId)
    const states = () =>
      t.events.filter((e) => e.event === 'connectivity.changed').map((e) => e.payload as Connectivity)
    gate.hold = (r) => r.path === '/api/v1/agents'
    const pending = t.core.invoke('agents.list', undefined, 'slow-1')
    await waitFor(() => states().some((s) => s.slow === true), 3000)
    expect((await t.call('session.get')).connectivity).toMatchObject({ online: true, slow: true })
    await t.call('calls.cancel', { callId: 'slow-1' })
    await pending
    await waitFor(() => states().at(-1)?.slow === undefined, 3000)
    expect((await t.call('session.get')).connectivity.slow).toBeUndefined()
  })
})

describe('a create accepted without an answer (through the core)', () => {
  it('says so (not "not found") and asks the stores to refetch the list', async () => {
    const s = await startScriptedServer()
    cleanup.push(() => s.close())
    const t = testCore()
    cleanup.push(() => t.core.dispose())
    const profile = await t.call('profiles.save', { name: 'Null', baseUrl: s.url })
    s.queue.push(
      s.json(200, {
        success: true,
        data: { token: 'tok-1234567890', user: { id: 'u1', email: 'a@b.c', name: 'A' } }
      })
    )
    await t.call('session.signIn', { profileId: profile.id, email: 'a@b.c', password: 'pw' })
    const before = t.events.length
    // The scripted server's fallback answer is the success envelope with `data: null`.
    const err = await t.fail('agents.create', {
      name: 'Ghost',
      type: 'REACT',
      llm: { provider: 'p', model: 'm' }
    })
    expect(err.kind).not.toBe('not_found')
    expect(err.message).toBe(
      'The server accepted the new agent without sending it back: the list is refreshed to show it'
    )
    expect(t.events.slice(before)).toContainEqual({ event: 'data.changed', payload: { resource: 'agents' } })
    expect(await t.call('outbox.list')).toEqual([])
  })
})
