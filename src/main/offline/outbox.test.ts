import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AppError, isConnectivityError } from '../../shared/errors'
import type { OutboxEntry } from '../../shared/ipc'
import { replayOutbox } from './index'
import { type TempStores, tempStores } from '../../../test/support/offlineStores'

let t: TempStores
beforeEach(() => {
  t = tempStores()
})
afterEach(() => t.cleanup())

const offline = () => new AppError({ kind: 'network', message: 'The server cannot be reached' })
const refused = () => new AppError({ kind: 'validation', message: 'Name is taken', status: 422 })
const isConn = (e: unknown) => AppError.is(e) && isConnectivityError(e)

describe('outbox store', () => {
  it('enqueues in seq order, durable across reopen', () => {
    const a = t.open()
    const e1 = a.outbox.enqueue({
      channel: 'documents.rename',
      label: 'Rename “Q3”',
      input: { id: 'd1', patch: { name: 'Q4' } }
    })
    const e2 = a.outbox.enqueue({
      channel: 'agents.create',
      label: 'Create agent',
      input: { args: { name: 'Bot' }, tempId: 'local-1' }
    })
    expect(e1).toMatchObject({
      status: 'pending',
      attempts: 0,
      channel: 'documents.rename',
      label: 'Rename “Q3”'
    })
    expect(e2.seq).toBeGreaterThan(e1.seq)
    expect(typeof e1.createdAt).toBe('string')
    a.close()
    const b = t.open()
    const list = b.outbox.list()
    expect(list.map((e) => e.id)).toEqual([e1.id, e2.id])
    expect(list[1]?.input).toEqual({ args: { name: 'Bot' }, tempId: 'local-1' })
    expect(b.outbox.get(e1.id)).toEqual(e1)
    expect(b.outbox.get('nope')).toBeNull()
    // A later entry still gets a higher seq after reopen, even once earlier ones are gone.
    b.outbox.remove(e2.id)
    const e3 = b.outbox.enqueue({ channel: 'x.y', label: 'x', input: null })
    expect(e3.seq).toBeGreaterThan(e2.seq)
  })

  it('refuses inputs that are not JSON data with a clear error, storing nothing', () => {
    const { outbox } = t.open()
    const circular: Record<string, unknown> = {}
    circular.self = circular
    expect(() => outbox.enqueue({ channel: 'a.b', label: 'x', input: circular })).toThrow(/plain JSON/)
    expect(outbox.list()).toEqual([])
  })

  it('tracks status, attempts and errors, keeping the input intact', () => {
    const { outbox } = t.open()
    const e = outbox.enqueue({
      channel: 'tags.create',
      label: 'Create tag',
      input: { name: 'x', color: '#fff' }
    })
    outbox.markReplaying(e.id)
    expect(outbox.get(e.id)).toMatchObject({ status: 'replaying', attempts: 1 })
    outbox.markFailed(e.id, {
      kind: 'validation',
      message: 'Bad',
      fields: [{ field: 'name', message: 'Taken' }]
    })
    expect(outbox.get(e.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      input: { name: 'x', color: '#fff' },
      error: { kind: 'validation', message: 'Bad', fields: [{ field: 'name', message: 'Taken' }] }
    })
    outbox.markPending(e.id)
    const back = outbox.get(e.id)
    expect(back?.status).toBe('pending')
    expect(back?.error).toBeUndefined()
    outbox.remove(e.id)
    expect(outbox.list()).toEqual([])
  })

  it('remapId rewrites a temporary id in every input, deep, and nothing else', () => {
    const { outbox } = t.open()
    const a = outbox.enqueue({
      channel: 'agents.update',
      label: 'u',
      input: { args: { id: 'local-1', patch: { tags: ['local-1', 'local-10'] } } }
    })
    const b = outbox.enqueue({
      channel: 'agentDocuments.create',
      label: 'l',
      input: { args: { agentId: 'local-1', documentId: 'd' } }
    })
    const c = outbox.enqueue({
      channel: 'agents.update',
      label: 'u',
      input: { args: { id: 'local-10', name: 'local-1 copy' } }
    })
    outbox.remapId('local-1', 'r1')
    expect(outbox.get(a.id)?.input).toEqual({ args: { id: 'r1', patch: { tags: ['r1', 'local-10'] } } })
    expect(outbox.get(b.id)?.input).toEqual({ args: { agentId: 'r1', documentId: 'd' } })
    expect(outbox.get(c.id)?.input).toEqual({ args: { id: 'local-10', name: 'local-1 copy' } })
  })
})

describe('replayOutbox', () => {
  it('replays in order, remapping temporary ids for later entries', async () => {
    const { outbox } = t.open()
    outbox.enqueue({
      channel: 'agents.create',
      label: 'c',
      input: { args: { name: 'A' }, tempId: 'local-a' }
    })
    outbox.enqueue({
      channel: 'agents.update',
      label: 'u',
      input: { args: { id: 'local-a', patch: { name: 'B' } } }
    })
    outbox.enqueue({ channel: 'documents.delete', label: 'd', input: { args: { id: 'd1' } } })
    const seen: unknown[] = []
    let changes = 0
    const result = await replayOutbox(
      outbox,
      async (entry: OutboxEntry) => {
        expect(outbox.get(entry.id)?.status).toBe('replaying')
        seen.push(entry.input)
        if (entry.channel === 'agents.create') return { tempId: 'local-a', realId: 'r-a' }
        return undefined
      },
      isConn,
      () => changes++
    )
    expect(result).toEqual({ done: 3, failed: 0, stoppedOffline: false })
    expect(seen).toEqual([
      { args: { name: 'A' }, tempId: 'local-a' },
      { args: { id: 'r-a', patch: { name: 'B' } } },
      { args: { id: 'd1' } }
    ])
    expect(outbox.list()).toEqual([])
    expect(changes).toBe(6) // replaying + done, per entry
  })

  it('stops at the first connectivity error, leaving that entry pending with its attempt counted', async () => {
    const { outbox } = t.open()
    const e1 = outbox.enqueue({ channel: 'a.x', label: '1', input: 1 })
    const e2 = outbox.enqueue({ channel: 'a.x', label: '2', input: 2 })
    const e3 = outbox.enqueue({ channel: 'a.x', label: '3', input: 3 })
    const calls: unknown[] = []
    const result = await replayOutbox(
      outbox,
      async (entry) => {
        calls.push(entry.input)
        if (entry.input === 2) throw offline()
      },
      isConn,
      () => undefined
    )
    expect(result).toEqual({ done: 1, failed: 0, stoppedOffline: true })
    expect(calls).toEqual([1, 2])
    expect(outbox.get(e1.id)).toBeNull()
    expect(outbox.get(e2.id)).toMatchObject({ status: 'pending', attempts: 1, input: 2 })
    expect(outbox.get(e3.id)).toMatchObject({ status: 'pending', attempts: 0 })
  })

  it('marks a refused entry failed (input intact), continues with independent entries, holds back dependants', async () => {
    const { outbox } = t.open()
    const create = outbox.enqueue({
      channel: 'agents.create',
      label: 'c',
      input: { args: { name: 'Dup' }, tempId: 'local-a' }
    })
    const dependant = outbox.enqueue({
      channel: 'agents.update',
      label: 'u',
      input: { args: { id: 'local-a', patch: {} } }
    })
    const dependant2 = outbox.enqueue({
      channel: 'agentTools.create',
      label: 'l',
      input: { args: { agentId: 'local-a', toolId: 't' }, tempId: 'local-l' }
    })
    const transitive = outbox.enqueue({
      channel: 'agentTools.delete',
      label: 'x',
      input: { args: { id: 'local-l' } }
    })
    const other = outbox.enqueue({
      channel: 'documents.rename',
      label: 'r',
      input: { args: { id: 'd1', patch: { name: 'N' } } }
    })
    const calls: string[] = []
    const result = await replayOutbox(
      outbox,
      async (entry) => {
        calls.push(entry.label)
        if (entry.id === create.id) throw refused()
      },
      isConn,
      () => undefined
    )
    expect(result).toEqual({ done: 1, failed: 1, stoppedOffline: false })
    expect(calls).toEqual(['c', 'r'])
    expect(outbox.get(create.id)).toMatchObject({
      status: 'failed',
      input: { args: { name: 'Dup' }, tempId: 'local-a' },
      error: { kind: 'validation', message: 'Name is taken', status: 422 }
    })
    for (const e of [dependant, dependant2, transitive]) {
      expect(outbox.get(e.id)).toMatchObject({ status: 'pending', attempts: 0 })
    }
    expect(outbox.get(other.id)).toBeNull()

    // The user retries: now it is accepted, the dependants follow with the real id.
    outbox.markPending(create.id)
    const inputs: unknown[] = []
    const again = await replayOutbox(
      outbox,
      async (entry) => {
        inputs.push(entry.input)
        if (entry.id === create.id) return { tempId: 'local-a', realId: 'r-a' }
        if (entry.id === dependant2.id) return { tempId: 'local-l', realId: 'r-l' }
        return undefined
      },
      isConn,
      () => undefined
    )
    expect(again).toEqual({ done: 4, failed: 0, stoppedOffline: false })
    expect(inputs.slice(1)).toEqual([
      { args: { id: 'r-a', patch: {} } },
      { args: { agentId: 'r-a', toolId: 't' }, tempId: 'local-l' },
      { args: { id: 'r-l' } }
    ])
  })

  it('uses the tempId given to enqueue() when execute does not name it', async () => {
    const { outbox } = t.open()
    const c = outbox.enqueue({ channel: 'tags.create', label: 'c', input: { name: 'x' }, tempId: 'local-t' })
    const u = outbox.enqueue({
      channel: 'agents.update',
      label: 'u',
      input: { id: 'a', patch: { tags: ['local-t'] } }
    })
    expect(outbox.tempIdOf(c.id)).toBe('local-t')
    const inputs: unknown[] = []
    await replayOutbox(
      outbox,
      async (entry) => {
        inputs.push(entry.input)
        return entry.id === c.id ? { realId: 'r-t' } : undefined
      },
      isConn,
      () => undefined
    )
    expect(inputs[1]).toEqual({ id: 'a', patch: { tags: ['r-t'] } })
    expect(outbox.get(u.id)).toBeNull()
  })

  it('a second call while a replay runs returns the same promise and never runs an entry twice', async () => {
    const { outbox } = t.open()
    outbox.enqueue({ channel: 'a.x', label: '1', input: 1 })
    outbox.enqueue({ channel: 'a.x', label: '2', input: 2 })
    let release: () => void = () => undefined
    const gate = new Promise<void>((r) => (release = r))
    const calls: unknown[] = []
    const exec = async (entry: OutboxEntry) => {
      calls.push(entry.input)
      await gate
    }
    const first = replayOutbox(outbox, exec, isConn, () => undefined)
    const second = replayOutbox(outbox, exec, isConn, () => undefined)
    expect(second).toBe(first)
    // Entries queued while it runs are picked up by the same replay.
    outbox.enqueue({ channel: 'a.x', label: '3', input: 3 })
    release()
    expect(await first).toEqual({ done: 3, failed: 0, stoppedOffline: false })
    expect(calls).toEqual([1, 2, 3])
    // Once finished, a new call starts a new replay.
    const third = replayOutbox(outbox, exec, isConn, () => undefined)
    expect(third).not.toBe(first)
    expect(await third).toEqual({ done: 0, failed: 0, stoppedOffline: false })
  })

  it('resends an entry a crash left "replaying", and records non-AppError failures as internal', async () => {
    const a = t.open()
    const e = a.outbox.enqueue({ channel: 'a.x', label: '1', input: 1 })
    a.outbox.markReplaying(e.id)
    a.close()
    const b = t.open()
    const result = await replayOutbox(
      b.outbox,
      async () => {
        throw new TypeError('boom')
      },
      isConn,
      () => undefined
    )
    expect(result).toEqual({ done: 0, failed: 1, stoppedOffline: false })
    expect(b.outbox.get(e.id)).toMatchObject({
      status: 'failed',
      attempts: 2,
      error: { kind: 'internal', message: 'boom' }
    })
  })
})
