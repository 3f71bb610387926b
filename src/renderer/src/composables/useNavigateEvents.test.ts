import { describe, expect, it } from 'vitest'
import { effectScope } from 'vue'
import type { DeskApi, IpcEvents } from '../../../shared/ipc'
import { useNavigateEvents } from './useNavigateEvents'

function fakeApi() {
  const listeners = new Set<(p: IpcEvents['navigate']) => void>()
  const api = {
    on: ((event: string, listener: (p: IpcEvents['navigate']) => void) => {
      if (event !== 'navigate') throw new Error(`unexpected ${event}`)
      listeners.add(listener)
      return () => listeners.delete(listener)
    }) as DeskApi['on'],
    emit: (p: IpcEvents['navigate']) => listeners.forEach((l) => l(p)),
    count: () => listeners.size
  }
  return api
}

describe('useNavigateEvents', () => {
  it('follows navigate events to the app’s own routes and stops with its scope', async () => {
    const api = fakeApi()
    const pushed: string[] = []
    const scope = effectScope()
    scope.run(() => useNavigateEvents(api, { push: async (r: unknown) => void pushed.push(String(r)) }))
    api.emit({ route: '/outbox' })
    api.emit({ route: 'https://evil.example/' })
    api.emit({ route: '//evil.example' })
    api.emit({ route: '/agents/a-1' })
    expect(pushed).toEqual(['/outbox', '/agents/a-1'])
    scope.stop()
    expect(api.count()).toBe(0)
    api.emit({ route: '/tags' })
    expect(pushed).toHaveLength(2)
  })
})
