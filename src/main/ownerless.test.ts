/**
 * A list leaves main for the page without the owner its items embed (ownerless.ts): through the
 * core against the embedded service, and the owner's text found in odd items.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { coreOnService } from '../../test/support/mainCore'
import { withoutUsers } from '../../test/support/withoutUsers'
import { ListText } from './offline/listText'
import { ownerless, ownerText } from './ownerless'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

describe('a list as it leaves main', () => {
  it("holds its items without their owner, an agent's document's too; an item's read keeps it", async () => {
    const t = await coreOnService(cleanup, 'owner@example.com')
    const doc = (await t.call('documents.create', { name: 'Doc', type: 'TXT', url: 'https://example.com/d' }))
      .data
    const tag = (await t.call('tags.create', { name: 'fast', color: '#0E8A16' })).data
    const agent = (
      await t.call('agents.create', {
        name: 'Agent "quoted" {braces}',
        type: 'REACT',
        llm: { provider: 'openai', model: 'gpt-4o-mini' },
        documentId: doc.id,
        tags: [tag.id]
      })
    ).data
    await t.call('agents.create', { name: 'Plain', type: 'REACT', llm: { provider: 'openai', model: 'm' } })
    const got = (await t.call('agents.get', { id: agent.id })).data as Record<string, unknown>
    // The service embeds the owner, in the agent and in its document.
    expect(got.user).toMatchObject({ email: 'owner@example.com' })
    expect((got.document as Record<string, unknown>).user).toMatchObject({ email: 'owner@example.com' })
    // The first list (the cache filled) and the next ones (answered as main remembers them).
    for (let i = 0; i < 3; i++) {
      const listed = (await t.call('agents.list')).data as Record<string, unknown>[]
      expect(listed).toHaveLength(2)
      const mine = listed.find((a) => a.id === agent.id) as Record<string, unknown>
      expect(mine).toEqual(withoutUsers(got))
      expect(JSON.stringify(listed)).not.toContain('owner@example.com')
    }
    // Documents and tools too.
    await t.call('tools.create', { name: 'Search', type: 'SEARCH' })
    for (const channel of ['documents.list', 'tools.list'] as const) {
      await t.call(channel)
      const again = await t.call(channel)
      expect(JSON.stringify(again.data)).not.toContain('owner@example.com')
    }
  })

  it("finds the owner's text in odd items, and cuts nothing it cannot find whole", () => {
    const user = {
      id: 'u-1',
      email: 'a"b@example.com',
      name: 'N } { ] [',
      profile: { nested: [1, { x: '}' }] }
    }
    const item = (extra: Record<string, unknown> = {}) =>
      JSON.stringify({ id: 'i', userId: 'u-1', user, name: 'x', ...extra })
    const owner = `"user":${JSON.stringify(user)},`
    expect(ownerText([item()])).toBe(owner)
    // Its owner's text in a value is escaped: not the owner's.
    const inValue = JSON.stringify({ id: 'j', userId: 'u-1', note: owner, name: 'y' })
    expect(ownerText([inValue])).toBeNull()
    // Another user embedded, the owner last in its object (no comma after it), no owner at all.
    expect(ownerText([JSON.stringify({ id: 'k', userId: 'u-1', user: { id: 'u-2' }, name: 'z' })])).toBeNull()
    expect(ownerText([JSON.stringify({ id: 'l', userId: 'u-1', user })])).toBeNull()
    expect(ownerText([JSON.stringify({ id: 'm', name: 'n' }), 'not json', item()])).toBe(owner)

    // Cut from every item as the list leaves, a piece at a time; items without it as they are.
    const texts = [item(), inValue, item({ document: { id: 'd', user, name: 'D' } })]
    const value = { data: new ListText(texts), source: 'network' }
    const out = ownerless(value) as { data: ListText }
    expect(out).not.toBe(value)
    const parsed = [0, 1, 2].flatMap((i) =>
      out.data.jsonParts(i, i + 1).flatMap((p) => JSON.parse(p) as unknown[])
    )
    expect(parsed).toEqual([
      { id: 'i', userId: 'u-1', name: 'x' },
      JSON.parse(inValue),
      { id: 'i', userId: 'u-1', name: 'x', document: { id: 'd', name: 'D' } }
    ])
    // Main's own list keeps it.
    expect(value.data.texts).toEqual(texts)
    // Nothing to cut: the same answer.
    const none = { data: new ListText([inValue]) }
    expect(ownerless(none)).toBe(none)
  })
})
