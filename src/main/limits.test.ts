/**
 * Bounds on IPC inputs, through the real core: a 20 MiB or deeply nested input is refused in
 * words before it is parsed, and nothing reaches the outbox or the cache file; bounded ids, JSON
 * values and tag refs are refused by the shared schemas with the field named.
 */
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startService } from '../service'
import { testCore, tempDir, type TestCore } from '../../test/support/mainCore'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

function folderBytes(dir: string): number {
  let n = 0
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    const s = statSync(p)
    n += s.isDirectory() ? folderBytes(p) : s.size
  }
  return n
}

/** `{a: {a: … {} }}`, `levels` objects deep, built without recursion. */
function deep(levels: number): Record<string, unknown> {
  let v: Record<string, unknown> = {}
  for (let i = 1; i < levels; i++) v = { a: v }
  return v
}

/** A signed-in core whose server has gone away: writes would be queued. */
async function offlineCore(): Promise<TestCore> {
  const svc = await startService({
    dataDir: tempDir('agent-desk-svc-'),
    port: 0,
    scryptCost: 16,
    logger: () => undefined
  })
  const t = testCore()
  cleanup.push(() => t.core.dispose())
  const profile = await t.call('profiles.save', { name: 'Svc', baseUrl: svc.url })
  await t.call('session.signUp', {
    profileId: profile.id,
    email: 'l@b.co',
    password: 'password-1',
    name: 'L'
  })
  await svc.close()
  // Proof that writes are queued now.
  const queued = await t.call('tools.create', { name: 'Small', type: 'OPENAPI', metadata: { a: 1 } })
  expect(queued.status).toBe('queued')
  await t.call('outbox.discard', { id: (queued as { outboxId: string }).outboxId })
  expect(await t.call('outbox.list')).toEqual([])
  return t
}

describe('IPC input bounds', () => {
  it('refuses a 20 MiB tools.create offline, quickly and in words, and queues nothing', async () => {
    const t = await offlineCore()
    const cacheBefore = folderBytes(join(t.userDataDir, 'cache'))
    const huge = 'x'.repeat(20 * 1024 * 1024)
    const started = Date.now()
    const err = await t.fail('tools.create', { name: 'Huge', type: 'OPENAPI', metadata: { blob: huge } })
    const took = Date.now() - started
    expect(err.kind).toBe('validation')
    expect(err.message).toBe('The request is too large (more than 1 MiB): nothing was saved')
    expect(took).toBeLessThan(1500)
    expect(await t.call('outbox.list')).toEqual([])
    expect(folderBytes(join(t.userDataDir, 'cache'))).toBeLessThan(cacheBefore + 256 * 1024)
  })

  it('refuses deep JSON: 50,000 levels before parsing, 33 levels in a field', async () => {
    const t = await offlineCore()
    const far = await t.fail('tools.create', { name: 'Deep', type: 'OPENAPI', metadata: deep(50_000) })
    expect(far).toMatchObject({ kind: 'validation', message: expect.stringContaining('nested too deeply') })
    const near = await t.fail('tools.create', { name: 'Deep', type: 'OPENAPI', metadata: deep(33) })
    expect(near.fields).toEqual([{ field: 'metadata', message: 'Nested too deeply: at most 32 levels' }])
    const doc = await t.fail('documents.create', {
      name: 'D',
      type: 'PDF',
      url: 'https://example.com/d.pdf',
      authorization: { token: 'y'.repeat(300 * 1024) }
    })
    expect(doc.fields).toEqual([{ field: 'authorization', message: 'Too large: at most 256 KiB' }])
    // At the limits: accepted (queued, as the server is away).
    const ok = await t.call('tools.create', { name: 'Deep', type: 'OPENAPI', metadata: deep(32) })
    expect(ok.status).toBe('queued')
    expect((await t.call('outbox.list')).length).toBe(1)
  })

  it('bounds ids to 256 characters and takes tag refs with a tag’s own keys only', async () => {
    const t = await offlineCore()
    const long = await t.fail('agents.get', { id: 'a'.repeat(257) })
    expect(long.fields).toEqual([{ field: 'id', message: 'At most 256 characters' }])
    const base = { name: 'A', type: 'REACT', llm: { provider: 'p', model: 'm' } } as const
    const odd = await t.fail('agents.create', {
      ...base,
      tags: [{ id: 't1', name: 'red', color: '#CC0000', extra: 'x'.repeat(100_000) }] as never
    })
    expect(odd.kind).toBe('validation')
    expect(odd.fields?.[0]?.field).toBe('tags.0')
    const ok = await t.call('agents.create', {
      ...base,
      tags: ['t1', { id: 't2', name: 'blue', color: '#0000CC' }]
    })
    expect(ok.status).toBe('queued')
  })
})
