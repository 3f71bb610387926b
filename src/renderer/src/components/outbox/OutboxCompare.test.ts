// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import { nextTick } from 'vue'
import type { OutboxEntry } from '../../../../shared/ipc'
import OutboxCompare from './OutboxCompare.vue'
import { compareRows } from './compare'

const entry: OutboxEntry = {
  id: 'ob-1',
  seq: 1,
  channel: 'tools.update',
  label: 'Change tool “Shared”',
  input: { args: { id: 't1', patch: { name: 'From A', metadata: { k: 1 } } } },
  createdAt: '2026-05-01T10:00:00.000Z',
  status: 'conflict',
  attempts: 1,
  error: { kind: 'conflict', message: 'Changed on the server since you edited it' },
  server: {
    id: 't1',
    name: 'Shared',
    description: 'by B',
    metadata: { k: 1 },
    updatedAt: '2026-05-01T10:01:00.000+00:00'
  }
}

describe('comparing a conflicting change with the server’s item', () => {
  it('lines up the fields the change sets with the server’s values and marks the differences', () => {
    expect(compareRows(entry)).toEqual([
      { field: 'name', mine: 'From A', server: 'Shared', edited: true, differs: true },
      { field: 'metadata', mine: '{\n  "k": 1\n}', server: '{\n  "k": 1\n}', edited: true, differs: false },
      { field: 'description', mine: 'by B', server: 'by B', edited: false, differs: false },
      {
        field: 'updatedAt',
        mine: '2026-05-01T10:01:00.000+00:00',
        server: '2026-05-01T10:01:00.000+00:00',
        edited: false,
        differs: false
      }
    ])
  })

  it('shows both side by side in a dialog whose buttons settle the conflict', async () => {
    const w = mount(OutboxCompare, { props: { entry }, attachTo: document.body })
    await nextTick()
    const rows = [...document.querySelectorAll('[data-testid="outbox-compare-row"]')]
    const name = rows.find((r) => r.getAttribute('data-field') === 'name')
    expect(name?.getAttribute('data-differs')).toBe('true')
    expect(name?.querySelector('[data-testid="outbox-compare-mine"]')?.textContent).toBe('From A')
    expect(name?.querySelector('[data-testid="outbox-compare-server"]')?.textContent).toBe('Shared')
    ;(document.querySelector('[data-testid="outbox-compare-mine-button"]') as HTMLElement).click()
    ;(document.querySelector('[data-testid="outbox-compare-server-button"]') as HTMLElement).click()
    expect(w.emitted('resolve')).toEqual([['sendAnyway'], ['takeServer']])
    w.unmount()
  })
})
