import { describe, expect, it } from 'vitest'
import type { OutboxEntry, OutboxStatus } from '../../shared/ipc'
import { FailedReplayWatcher, shouldNotify } from './notify'

const entry = (id: string, status: OutboxStatus, attempts = 1): OutboxEntry => ({
  id,
  seq: Number(id.replace(/\D/g, '')) || 1,
  channel: 'agents.update',
  label: `Rename agent ${id}`,
  input: {},
  createdAt: '2026-11-23T10:00:00.000000Z',
  status,
  attempts,
  ...(status === 'failed' ? { error: { kind: 'validation' as const, message: 'Name taken' } } : {})
})

describe('shouldNotify', () => {
  it('notifies of entries that have just failed while the window is hidden', () => {
    const prev = [entry('o1', 'replaying'), entry('o2', 'replaying'), entry('o3', 'pending')]
    const next = [entry('o1', 'failed'), entry('o2', 'failed'), entry('o3', 'pending')]
    expect(shouldNotify(prev, next, false)).toMatchObject({
      notify: true,
      newlyFailed: ['o1', 'o2'],
      title: '2 changes could not be sent'
    })
    expect(shouldNotify(prev, [entry('o1', 'failed')], false).title).toBe('1 change could not be sent')
  })

  it('stays quiet while the window is visible', () => {
    const d = shouldNotify([entry('o1', 'replaying')], [entry('o1', 'failed')], true)
    expect(d.notify).toBe(false)
    expect(d.newlyFailed).toEqual(['o1'])
  })

  it('does not notify again for entries that had already failed', () => {
    const failed = [entry('o1', 'failed')]
    expect(shouldNotify(failed, failed, false).notify).toBe(false)
    expect(shouldNotify(failed, [...failed, entry('o2', 'pending')], false).notify).toBe(false)
    // An entry newly seen as failed (e.g. the first list after a start) counts as new.
    expect(shouldNotify([], failed, false).notify).toBe(true)
    // Sent successfully, pending or replaying: nothing to say.
    expect(shouldNotify([entry('o1', 'pending')], [entry('o1', 'replaying')], false).notify).toBe(false)
    expect(shouldNotify([entry('o1', 'replaying')], [], false).notify).toBe(false)
  })

  it('does not repeat for the same entry retried and failing again', () => {
    const shown: string[] = []
    let visible = false
    const w = new FailedReplayWatcher(
      () => visible,
      (title) => shown.push(title)
    )
    w.update([entry('o1', 'pending')])
    w.update([entry('o1', 'replaying')])
    w.update([entry('o1', 'failed')])
    w.update([entry('o1', 'replaying', 2)])
    w.update([entry('o1', 'failed', 2)])
    expect(shown).toEqual(['1 change could not be sent'])
    // A different entry failing later is news; one failing while visible is not shown later on.
    visible = true
    w.update([entry('o1', 'failed', 2), entry('o2', 'failed')])
    visible = false
    w.update([entry('o1', 'failed', 2), entry('o2', 'failed'), entry('o3', 'replaying')])
    w.update([entry('o1', 'failed', 2), entry('o2', 'failed'), entry('o3', 'failed')])
    expect(shown).toEqual(['1 change could not be sent', '1 change could not be sent'])
  })
})
