/**
 * `palette.items`: every cached agent, document, tool, prompt, tag and API token by name, read from
 * the offline cache, so the command palette works with the server gone.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { startService } from '../service'
import { testCore, tempDir, type TestCore } from '../../test/support/mainCore'
import { rankIndex, textsAt } from '../shared/fuzzy'
import { kindAt, type PaletteNames } from '../shared/palette'

/** The columns main sends, back as one object an item, by `kind:id`. */
function byKind(p: PaletteNames) {
  const index = rankIndex(p.names, p.descriptions)
  const items = p.ids.map((id, i) => {
    const { text, detail } = textsAt(index, i)
    return { kind: kindAt(p, i), id, name: text, description: detail }
  })
  return Object.fromEntries(items.map((i) => [`${i.kind}:${i.id}`, i]))
}

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

describe('palette.items', () => {
  it('is empty when signed out, then names every kind from the cache, also offline', async () => {
    const svc = await startService({
      dataDir: tempDir('agent-desk-svc-'),
      port: 0,
      scryptCost: 16,
      logger: () => {}
    })
    let closed = false
    cleanup.push(async () => {
      if (!closed) await svc.close()
    })
    const t: TestCore = testCore()
    cleanup.push(() => t.core.dispose())
    expect(byKind(await t.call('palette.items'))).toEqual({})

    const profile = await t.call('profiles.save', { name: 'Svc', baseUrl: svc.url })
    await t.call('session.signUp', {
      profileId: profile.id,
      email: 'p@b.co',
      password: 'password-1',
      name: 'P'
    })
    const tag = (await t.call('tags.create', { name: 'ops', color: '#0E8A16' })).data
    const doc = (
      await t.call('documents.create', { name: 'Handbook', type: 'PDF', url: 'https://e.x/h.pdf' })
    ).data
    const tool = (
      await t.call('tools.create', { name: 'Web search', type: 'SEARCH', description: 'Finds pages' })
    ).data
    const prompt = (await t.call('prompts.create', { name: 'Greeter', template: 'Hi {name}' })).data
    const agent = (
      await t.call('agents.create', {
        name: 'Support bot',
        type: 'REACT',
        llm: { provider: 'p', model: 'm' }
      })
    ).data
    const token = (await t.call('apiTokens.create', { description: 'CI token' })).data

    const sent = await t.call('palette.items')
    const online = byKind(sent)
    expect(online[`agents:${agent?.id}`]).toMatchObject({ name: 'Support bot' })
    expect(online[`documents:${doc?.id}`]).toMatchObject({ name: 'Handbook' })
    expect(online[`tools:${tool?.id}`]).toMatchObject({ name: 'Web search', description: 'Finds pages' })
    expect(online[`prompts:${prompt?.id}`]).toMatchObject({ name: 'Greeter' })
    expect(online[`tags:${tag?.id}`]).toMatchObject({ name: 'ops' })
    expect(online[`apiTokens:${token?.id}`]).toEqual({
      kind: 'apiTokens',
      id: token?.id,
      name: 'CI token',
      description: null
    })
    expect(sent.counts).toEqual([1, 1, 1, 1, 1, 1])
    // Names only: no item's other fields (and never a token's secret) cross into the palette.
    expect(Object.keys(sent).sort()).toEqual(['counts', 'descriptions', 'ids', 'names'])
    expect(JSON.stringify(sent)).not.toContain('https://e.x/h.pdf')
    expect(token?.token?.length).toBeGreaterThan(8)
    expect(JSON.stringify(sent)).not.toContain(token?.token)

    await svc.close()
    closed = true
    const offline = byKind(await t.call('palette.items'))
    expect(Object.keys(offline).sort()).toEqual(Object.keys(online).sort())
  })
})
