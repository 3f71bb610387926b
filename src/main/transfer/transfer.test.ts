/**
 * Export, import and copy through the real core against real embedded services: ids remapped,
 * tags reused by name, links rebuilt, secrets only when asked, refusals in words, a failure
 * part-way listed and undone, copies to the Local workspace and to a server profile.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startService } from '../../service'
import { startOddProxy, type OddProxy } from '../../../test/servers/oddProxy'
import { testCore, type TestCore } from '../../../test/support/mainCore'
import { TRANSFER_FORMAT } from '../../shared/transfer'
import { memoryKeychain, type Keychain } from '../keychain'

type Service = Awaited<ReturnType<typeof startService>>
const llm = { provider: 'openai', model: 'gpt-4o' }
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.()
})

/** A core whose keychain records every secret written to it. */
function core(): TestCore & { written: string[] } {
  const kc = memoryKeychain()
  const written: string[] = []
  const keychain: Keychain = {
    ...kc,
    kind: kc.kind,
    get: (a) => kc.get(a),
    delete: (a) => kc.delete(a),
    set: async (a, v) => {
      written.push(v)
      await kc.set(a, v)
    }
  }
  const t = testCore({ keychain })
  cleanups.push(() => t.core.dispose())
  return Object.assign(t, { written })
}
async function service(): Promise<Service> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-desk-transfer-'))
  const s = await startService({ dataDir, port: 0, scryptCost: 16, logger: () => undefined })
  cleanups.push(async () => {
    await s.close()
    rmSync(dataDir, { recursive: true, force: true })
  })
  return s
}
/** A core signed up to a server profile at `url`. */
async function onServer(t: TestCore, url: string, email: string) {
  const profile = await t.call('profiles.save', { name: `Team ${email}`, baseUrl: url })
  await t.call('session.signUp', { profileId: profile.id, email, password: 'correct-horse-1', name: email })
  return profile
}

/** An agent with a tag, a prompt, a document (with authorization) and a tool, linked. */
async function seed(t: TestCore) {
  const tag = (await t.call('tags.create', { name: 'support', color: '#12AB34' })).data
  const prompt = (await t.call('prompts.create', { name: 'Greeter', template: 'Hi {name}' })).data
  const doc = (
    await t.call('documents.create', {
      name: 'Handbook',
      type: 'PDF',
      url: 'https://example.com/h.pdf',
      authorization: { header: 'X-Key', value: 'doc-secret-12345' }
    })
  ).data
  const tool = (await t.call('tools.create', { name: 'Search', type: 'SEARCH', description: 'web' })).data
  const agent = (
    await t.call('agents.create', { name: 'Helper', type: 'REACT', llm, promptId: prompt.id, tags: [tag.id] })
  ).data
  await t.call('agentDocuments.create', { agentId: agent.id, documentId: doc.id })
  await t.call('agentTools.create', { agentId: agent.id, toolId: tool.id })
  const other = (await t.call('agents.create', { name: 'Loner', type: 'REACT', llm })).data
  return { tag, prompt, doc, tool, agent, other }
}

/** The agent called `name` in the signed-in profile, with its tag names and linked names. */
async function agentNamed(t: TestCore, name: string) {
  const agents = (await t.call('agents.list')).data.filter((a) => a.name === name)
  const a = agents[0]
  if (!a) return null
  const docs = (await t.call('agentDocuments.list', { agentId: a.id })).data
  const tools = (await t.call('agentTools.list', { agentId: a.id })).data
  const docNames = (await t.call('documents.list')).data.filter((d) =>
    docs.some((l) => l.documentId === d.id)
  )
  const toolNames = (await t.call('tools.list')).data.filter((x) => tools.some((l) => l.toolId === x.id))
  const prompt = a.promptId ? (await t.call('prompts.get', { id: a.promptId })).data.name : null
  return {
    id: a.id,
    count: agents.length,
    tags: (a.tags ?? []).map((x) => x.name),
    prompt,
    documents: docNames.map((d) => d.name),
    tools: toolNames.map((x) => x.name)
  }
}

describe('export and import', () => {
  it('round trip into another profile: new ids, tags reused by name, links rebuilt, no secret unless asked', async () => {
    const a = core()
    await a.call('session.startLocal')
    const s = await seed(a)
    await a.call('apiTokens.create', { description: 'CI token' })

    const plain = await a.call('transfer.export', { agentIds: [s.agent.id], includeSecrets: false })
    expect(plain.fileName).toMatch(/^agent-desk-local-workspace-\d{4}-\d{2}-\d{2}\.json$/)
    expect(plain.counts).toEqual({ tags: 1, prompts: 1, documents: 1, tools: 1, agents: 1, apiTokens: 0 })
    const file = JSON.parse(plain.text) as Record<string, unknown>
    expect(file.format).toBe(TRANSFER_FORMAT)
    expect(plain.text).not.toContain('doc-secret-12345')
    expect(plain.text).not.toContain('authorization')
    expect(plain.text).not.toContain('Loner')

    const everything = await a.call('transfer.export', { includeSecrets: true })
    expect(everything.counts.agents).toBe(2)
    expect(everything.counts.apiTokens).toBe(1)
    expect(everything.text).toContain('doc-secret-12345')

    const svc = await service()
    const b = core()
    await onServer(b, svc.url, 'bee@example.com')
    const preview = await b.call('transfer.preview', { text: plain.text })
    expect(preview.counts.agents).toBe(1)
    expect(preview.entries.filter((e) => e.action === 'create').map((e) => e.kind)).toEqual([
      'tag',
      'prompt',
      'document',
      'tool',
      'agent',
      'agentDocument',
      'agentTool'
    ])
    const report = await b.call('transfer.import', { text: plain.text })
    expect(report.failure).toBeNull()
    const got = await agentNamed(b, 'Helper')
    expect(got).toMatchObject({
      tags: ['support'],
      prompt: 'Greeter',
      documents: ['Handbook'],
      tools: ['Search']
    })
    expect(got?.id).not.toBe(s.agent.id)

    // Again: the tag is reused, not doubled; the agent comes a second time (names are not unique).
    const again = await b.call('transfer.import', { text: plain.text })
    expect(again.entries.find((e) => e.kind === 'tag')?.action).toBe('reuse')
    expect((await b.call('tags.list')).data.filter((t) => t.name === 'support')).toHaveLength(1)
    expect((await agentNamed(b, 'Helper'))?.count).toBe(2)

    // API tokens are listed as refused; the whole workspace imports otherwise.
    const all = await b.call('transfer.import', { text: everything.text })
    expect(all.entries.find((e) => e.kind === 'apiToken')).toMatchObject({
      action: 'refuse',
      reason: expect.stringMatching(/not imported/)
    })
    const docs = (await b.call('documents.list')).data.filter((d) => d.name === 'Handbook')
    expect(docs.some((d) => JSON.stringify(d.authorization).includes('doc-secret-12345'))).toBe(true)
    // No answer or event of either core carried a session token.
    for (const t of [a, b]) {
      expect(t.written.length).toBeGreaterThan(0)
      for (const v of t.written) expect(t.transcript.join('\n')).not.toContain(v)
    }
  })

  it('refuses a newer format, bad JSON and a foreign file in words; an invalid item is refused, the rest imports', async () => {
    const t = core()
    await t.call('session.startLocal')
    const newer = await t.fail('transfer.preview', {
      text: JSON.stringify({ format: TRANSFER_FORMAT, version: 9, exportedAt: 'x', secrets: false })
    })
    expect(newer.message).toMatch(/newer Agent Desk \(format 9\)/)
    expect((await t.fail('transfer.import', { text: '{not json' })).message).toMatch(/not JSON/)
    expect((await t.fail('transfer.preview', { text: '{"hello":1}' })).message).toMatch(
      /not an Agent Desk export/
    )

    const text = JSON.stringify({
      format: TRANSFER_FORMAT,
      version: 1,
      exportedAt: '2026-11-24T00:00:00.000Z',
      secrets: false,
      documents: [
        { ref: 'd1', name: 'Bad', type: 'PDF', url: 'ftp://nowhere', metadata: {} },
        { ref: 'd2', name: 'Good', type: 'PDF', url: 'https://example.com/g.pdf', metadata: {} }
      ],
      agents: [
        {
          ref: 'a1',
          name: 'Reader',
          type: 'REACT',
          llm,
          hasMemory: false,
          promptRef: 'p-missing',
          documentRef: null,
          tagRefs: [],
          documentRefs: ['d1', 'd2'],
          toolRefs: []
        }
      ]
    })
    const preview = await t.call('transfer.preview', { text })
    expect(preview.entries.find((e) => e.name === 'Bad')).toMatchObject({
      action: 'refuse',
      reason: expect.stringMatching(/^url: /)
    })
    expect(preview.entries.find((e) => e.kind === 'agentDocument' && e.action === 'refuse')?.reason).toMatch(
      /document “Bad” was refused/
    )
    const report = await t.call('transfer.import', { text })
    expect(report.failure).toBeNull()
    expect(report.entries.find((e) => e.kind === 'agent')?.reason).toMatch(/without its prompt/)
    expect(await agentNamed(t, 'Reader')).toMatchObject({ documents: ['Good'], prompt: null })
  })

  it('takes a file larger than other requests may be (a whole workspace), and only on its channels', async () => {
    const t = core()
    await t.call('session.startLocal')
    const tools = Array.from({ length: 3000 }, (_, i) => ({
      ref: `t${i}`,
      name: `Tool ${i}`,
      type: 'SEARCH',
      description: 'x'.repeat(700),
      metadata: {}
    }))
    const text = JSON.stringify({
      format: TRANSFER_FORMAT,
      version: 1,
      exportedAt: 'x',
      secrets: false,
      tools
    })
    expect(text.length).toBeGreaterThan(2 * 1024 * 1024)
    expect((await t.call('transfer.preview', { text })).counts.tools).toBe(3000)
    const refused = await t.fail('tools.create', { name: 'Big', type: 'SEARCH', description: text })
    expect(refused.code).toBe('input_too_large')
  })

  it('a failure part-way stops the import, lists what was created, and Undo removes it', async () => {
    const a = core()
    await a.call('session.startLocal')
    await seed(a)
    const { text } = await a.call('transfer.export', { includeSecrets: false })

    const svc = await service()
    const proxy: OddProxy = await startOddProxy(svc.url)
    cleanups.push(() => proxy.close())
    const b = core()
    await onServer(b, proxy.url, 'odd@example.com')
    proxy.rules.push({ method: 'POST', path: '/agents', action: { status: 500 }, times: 1 })
    const report = await b.call('transfer.import', { text })
    expect(report.failure?.message).toMatch(/^Stopped at agent “(Helper|Loner)”/)
    const created = report.entries.filter((e) => e.action === 'create' && e.id)
    expect(created.map((e) => e.kind).sort()).toEqual(['document', 'prompt', 'tag', 'tool'])
    expect((await b.call('tools.list')).data.map((x) => x.name)).toEqual(['Search'])

    const undone = await b.call('transfer.undo', { transferId: report.transferId })
    expect(undone).toEqual({ removed: 4, failed: [] })
    for (const list of ['tags.list', 'prompts.list', 'documents.list', 'tools.list'] as const) {
      expect((await b.call(list)).data, list).toEqual([])
    }
    expect((await b.fail('transfer.undo', { transferId: report.transferId })).message).toMatch(/no longer/)
  })

  it('exports offline from the cache', async () => {
    const svc = await service()
    const t = core()
    await onServer(t, svc.url, 'off@example.com')
    await seed(t)
    for (const list of ['agents.list', 'tags.list', 'agentDocuments.list', 'agentTools.list'] as const)
      await t.call(list)
    await svc.close()
    const out = await t.call('transfer.export', { includeSecrets: false })
    expect(out.counts).toMatchObject({ agents: 2, tags: 1, documents: 1, tools: 1, prompts: 1 })
    expect(
      JSON.parse(out.text).agents.find((x: { name: string }) => x.name === 'Helper').documentRefs
    ).toHaveLength(1)
  })
})

describe('copy to profile', () => {
  it('copies agents with what they use to the Local workspace and to a server profile; the credential is not kept', async () => {
    const svc = await service()
    const t = core()
    const team = await onServer(t, svc.url, 'owner@example.com')
    // A second server account to copy into, made beforehand.
    const other = core()
    await onServer(other, svc.url, 'target@example.com')

    await t.call('session.startLocal')
    const s = await seed(t)
    expect(
      (await t.fail('transfer.copy', { profileId: team.id, agentIds: [s.agent.id], includeSecrets: false }))
        .fields
    ).toEqual([{ field: 'credential', message: expect.stringMatching(/^Sign in to/) }])
    const local = (await t.call('profiles.list')).find((p) => p.kind === 'local')
    expect(
      (
        await t.fail('transfer.copy', {
          profileId: local?.id ?? '',
          agentIds: [s.agent.id],
          includeSecrets: false
        })
      ).message
    ).toMatch(/another profile/)
    const keysBefore = t.written.length

    const copied = await t.call('transfer.copy', {
      profileId: team.id,
      agentIds: [s.agent.id],
      includeSecrets: false,
      credential: { email: 'owner@example.com', password: 'correct-horse-1' }
    })
    expect(copied.failure).toBeNull()
    expect(copied.profileName).toBe(team.name)
    expect(t.written.length).toBe(keysBefore)
    expect(JSON.stringify(copied)).not.toMatch(/correct-horse/)

    await t.call('session.signIn', {
      profileId: team.id,
      email: 'owner@example.com',
      password: 'correct-horse-1'
    })
    expect(await agentNamed(t, 'Helper')).toMatchObject({
      tags: ['support'],
      prompt: 'Greeter',
      documents: ['Handbook'],
      tools: ['Search']
    })
    expect(await agentNamed(t, 'Loner')).toBeNull()

    // And back from the server profile to the Local workspace (no credential needed there).
    const helper = await agentNamed(t, 'Helper')
    const back = await t.call('transfer.copy', {
      profileId: local?.id ?? '',
      agentIds: [helper?.id ?? ''],
      includeSecrets: false
    })
    expect(back.failure).toBeNull()
    expect(back.entries.find((e) => e.kind === 'tag')?.action).toBe('reuse')
    await t.call('session.startLocal')
    expect((await agentNamed(t, 'Helper'))?.count).toBe(2)
  })
})
