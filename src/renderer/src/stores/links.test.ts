// @vitest-environment happy-dom
/**
 * The links store over the real app core (Local workspace) and the real window API, with main's
 * events delivered: a burst of link changes reads an agent's links one read at a time, and what
 * it shows in the end is every link.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { deskApiOver, testCore, waitFor, type TestCore } from '../../../../test/support/mainCore'
import { emitSessionReset } from '../composables/sessionBus'
import { useLinksStore } from './links'

const cores: TestCore[] = []
afterEach(async () => {
  while (cores.length) await cores.pop()?.core.dispose()
})

describe('links store', () => {
  it('reads an agent’s links one read at a time through a burst of changes, and ends with all of them', async () => {
    const t = testCore()
    cores.push(t)
    await t.call('session.startLocal')
    const llm = { provider: 'openai', model: 'gpt-4o' }
    const agent = (await t.call('agents.create', { name: 'Linked', type: 'REACT', llm })).data
    const docs = []
    for (let i = 0; i < 8; i++)
      docs.push(
        (
          await t.call('documents.create', {
            name: `Doc ${i}`,
            type: 'PDF',
            url: `https://example.com/${i}.pdf`
          })
        ).data
      )

    // The window API, its link reads counted while they run.
    const api = deskApiOver(t, '#/', { events: true })
    let open = 0
    let most = 0
    let reads = 0
    const list = api.agentDocuments.list.bind(api.agentDocuments)
    api.agentDocuments.list = async (input) => {
      reads++
      most = Math.max(most, ++open)
      try {
        return await list(input)
      } finally {
        open--
      }
    }
    window.agentDesk = api
    setActivePinia(createPinia())
    const store = useLinksStore()
    await store.load(agent.id)
    expect(store.of(agent.id).documents).toEqual([])
    reads = 0

    // Eight links made at once (elsewhere: main's data.changed tells the store of each).
    await Promise.all(
      docs.map((d) => t.call('agentDocuments.create', { agentId: agent.id, documentId: d.id }))
    )
    await waitFor(() => store.of(agent.id).documents.length === 8 && open === 0)
    expect(new Set(store.of(agent.id).documents.map((l) => l.targetId))).toEqual(
      new Set(docs.map((d) => d.id))
    )
    expect(most).toBe(1)
    expect(reads).toBeGreaterThanOrEqual(1)
    expect(reads).toBeLessThan(8)
  })

  it('drops an answer asked before the session changed: the next user never sees those links', async () => {
    const t = testCore()
    cores.push(t)
    await t.call('session.startLocal')
    const llm = { provider: 'openai', model: 'gpt-4o' }
    const agent = (await t.call('agents.create', { name: 'Linked', type: 'REACT', llm })).data
    const doc = (
      await t.call('documents.create', { name: 'Doc', type: 'PDF', url: 'https://example.com/d.pdf' })
    ).data
    await t.call('agentDocuments.create', { agentId: agent.id, documentId: doc.id })

    // The links read is held until the session has been reset.
    const api = deskApiOver(t)
    let letGo!: () => void
    const held = new Promise<void>((r) => (letGo = r))
    const list = api.agentDocuments.list.bind(api.agentDocuments)
    api.agentDocuments.list = async (input) => {
      const answer = await list(input)
      await held
      return answer
    }
    window.agentDesk = api
    setActivePinia(createPinia())
    const store = useLinksStore()
    const reading = store.load(agent.id)
    emitSessionReset()
    letGo()
    await reading
    expect(store.byAgent[agent.id]).toBeUndefined()
    // A read asked after the reset is shown.
    await store.load(agent.id)
    expect(store.of(agent.id).documents.map((l) => l.targetId)).toEqual([doc.id])
  })
})
