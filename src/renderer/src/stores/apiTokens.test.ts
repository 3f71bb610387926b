// @vitest-environment happy-dom
/**
 * The API-token store over the real app core (Local workspace) and the real preload API, started
 * the way a page start is (early reads for `#/api-tokens`): every answer, the early cached one
 * too, becomes masked token rows.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { deskApiOver, testCore, type TestCore } from '../../../../test/support/mainCore'
import { useApiTokensStore } from './apiTokens'

const cores: TestCore[] = []
afterEach(async () => {
  while (cores.length) await cores.pop()?.core.dispose()
})

describe('API tokens store', () => {
  it('keeps rows (masked preview, no value) from the early cached answer and from the network', async () => {
    const t = testCore()
    cores.push(t)
    await t.call('session.startLocal')
    const made = await t.call('apiTokens.create', { description: 'CI' })
    expect(made.data.token).toBeTruthy()
    await t.call('apiTokens.list') // in the cache now

    window.agentDesk = deskApiOver(t, '#/api-tokens')
    await new Promise((r) => setTimeout(r, 100)) // the early answer has come
    setActivePinia(createPinia())
    const store = useApiTokensStore()
    const loading = store.load()
    // The early answer was applied before the first await: rows, not main's token views.
    const row = {
      id: made.data.id,
      description: 'CI',
      createdAt: expect.any(String),
      tokenPreview: expect.any(String)
    }
    expect(store.items).toEqual([row])
    expect(Object.keys(store.items[0] ?? {}).sort()).toEqual([
      'createdAt',
      'description',
      'id',
      'tokenPreview'
    ])
    expect(JSON.stringify(store.items)).not.toContain(made.data.token)
    await loading
    expect(store.items).toEqual([row])
    expect(JSON.stringify(store.items)).not.toContain(made.data.token)
  })
})
