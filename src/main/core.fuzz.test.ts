/**
 * Fuzzing every IPC channel through the core (property-based, fast-check): arbitrary values a
 * renderer could send (structured-clone-able: JSON, undefined, Dates, Maps, typed arrays, BigInt…)
 * and mutations of valid inputs (a field dropped, replaced, added, a huge string, deep nesting),
 * against a signed-in session on the embedded service over real HTTP.
 *
 * Every call must answer `{ ok: true }` or `{ ok: false, error }` with a typed AppError: a known
 * kind, a message, never an unexpected (non-AppError) throw inside main (the core would log it as
 * "Unexpected failure" and answer `internal`), never a 500 from the service, and no unhandled
 * rejection anywhere in the process.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { APP_ERROR_KINDS } from '../shared/errors'
import { CHANNELS, type Channel, type ChannelInput } from '../shared/ipc'
import { testCore, type TestCore } from '../../test/support/mainCore'
import { startTestServer, type TestServer } from '../../test/support/serviceKit'

const RUNS = Number(process.env.AGENT_DESK_FUZZ_RUNS ?? 100)

let server: TestServer
let t: TestCore
const logged: string[] = []
const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => unhandled.push(reason)
let valid: { [C in Channel]: ChannelInput<C> }

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled)
  server = await startTestServer()
  t = testCore({ log: (message, err) => logged.push(`${message} ${err instanceof Error ? err.stack : ''}`) })
  const profile = await t.call('profiles.save', { name: 'Fuzz', baseUrl: server.service.url })
  await t.call('session.signUp', {
    profileId: profile.id,
    email: 'fuzz@example.com',
    password: 'password-fuzz-1',
    name: 'Fuzz'
  })
  const llm = { provider: 'openai', model: 'gpt-4o' }
  const agent = (await t.call('agents.create', { name: 'Fuzz agent', type: 'REACT', llm })).data
  const doc = (
    await t.call('documents.create', { name: 'Fuzz doc', type: 'PDF', url: 'https://example.com/a.pdf' })
  ).data
  const tool = (await t.call('tools.create', { name: 'Fuzz tool', type: 'SEARCH' })).data
  const prompt = (await t.call('prompts.create', { name: 'Fuzz prompt', template: 'Hi {name}' })).data
  const tag = (await t.call('tags.create', { name: 'fuzz', color: '#AABBCC' })).data
  const token = (await t.call('apiTokens.create', { description: 'fuzz' })).data
  const link = (await t.call('agentDocuments.create', { agentId: agent.id, documentId: doc.id })).data
  const byId = (id: string) => ({ id })
  valid = {
    'app.info': undefined,
    'app.openExternal': { url: 'https://example.com/help' },
    'app.about': undefined,
    'profiles.list': undefined,
    'profiles.save': { name: 'Other', baseUrl: 'http://127.0.0.1:9' },
    'profiles.remove': byId('no-such-profile'),
    'session.get': undefined,
    'session.startLocal': undefined,
    'session.signIn': { profileId: profile.id, email: 'fuzz@example.com', password: 'wrong-password-1' },
    'session.signInWithToken': { profileId: profile.id, token: 'not-a-token' },
    'session.signUp': {
      profileId: profile.id,
      email: 'fuzz@example.com',
      password: 'password-fuzz-1',
      name: 'F'
    },
    'session.signOut': { clearCache: false },
    'session.reconnect': undefined,
    'capabilities.get': undefined,
    'agents.list': { cacheOnly: false },
    'agents.get': byId(agent.id),
    'agents.create': { name: 'A', type: 'REACT', llm, tags: [tag.id] },
    'agents.update': { id: agent.id, patch: { name: 'Renamed', hasMemory: true } },
    'agents.delete': byId(agent.id),
    'documents.list': {},
    'documents.get': byId(doc.id),
    'documents.create': { name: 'D', type: 'PDF', url: 'https://example.com/d.pdf' },
    'documents.rename': { id: doc.id, patch: { name: 'D2' } },
    'documents.delete': byId(doc.id),
    'tools.list': {},
    'tools.get': byId(tool.id),
    'tools.create': { name: 'T', type: 'SEARCH', description: 'd', metadata: { a: 1 } },
    'tools.update': { id: tool.id, patch: { metadata: { b: [1, 2] } } },
    'tools.delete': byId(tool.id),
    'prompts.list': {},
    'prompts.get': byId(prompt.id),
    'prompts.create': { name: 'P', template: 'Dear {who}', input_variables: ['who'] },
    'prompts.update': { id: prompt.id, patch: { template: 'Hello {x}', input_variables: ['x'] } },
    'prompts.delete': byId(prompt.id),
    'tags.list': {},
    'tags.get': byId(tag.id),
    'tags.create': { name: 'new', color: '#123456' },
    'tags.update': { id: tag.id, patch: { color: '#654321' } },
    'tags.delete': byId(tag.id),
    'apiTokens.list': {},
    'apiTokens.get': byId(token.id),
    'apiTokens.create': { description: 'another' },
    'apiTokens.reveal': byId(token.id),
    'apiTokens.delete': byId(token.id),
    'agentDocuments.list': { agentId: agent.id },
    'agentDocuments.get': byId(link.id),
    'agentDocuments.create': { agentId: agent.id, documentId: doc.id },
    'agentDocuments.delete': byId(link.id),
    'agentTools.list': { agentId: agent.id },
    'agentTools.create': { agentId: agent.id, toolId: tool.id },
    'agentTools.delete': byId('no-such-link'),
    'outbox.list': undefined,
    'outbox.retry': byId('ob-none'),
    'outbox.discard': byId('ob-none'),
    'outbox.resolve': { id: 'ob-none', action: 'takeServer' },
    'calls.cancel': { callId: 'call-none' },
    'answers.next': { id: 'no-such-answer' },
    'settings.get': undefined,
    'settings.set': { theme: 'dark' },
    'updates.check': undefined,
    'palette.items': undefined,
    'drafts.list': undefined,
    'drafts.save': { key: 'tool-edit:fuzz', value: { name: 'Fuzz tool' } },
    'drafts.remove': { key: 'tool-edit:fuzz' },
    'transfer.export': { includeSecrets: false },
    'transfer.preview': {
      text: '{"format":"agent-desk.workspace","version":1,"exportedAt":"x","secrets":false}'
    },
    'transfer.import': { text: '{}' },
    'transfer.copy': { profileId: profile.id, agentIds: [agent.id], includeSecrets: false },
    'transfer.undo': { transferId: 'no-such-transfer' },
    'offline.info': undefined,
    'offline.clear': undefined,
    'localWorkspace.backups': undefined,
    'localWorkspace.restore': { name: 'service-20260101T000000000Z.db' }
  }
}, 60_000)

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled)
  await t?.core.dispose()
  await server?.stop()
})

/** What a renderer can hand to IPC (structured clone), plus odd prototypes and huge or deep values. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.anything({
    maxDepth: 3,
    withBigInt: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withTypedArray: true,
    withSparseArray: true,
    withNullPrototype: true,
    withBoxedValues: true
  }),
  fc.constantFrom(
    'x'.repeat(300_000),
    '\u0000',
    '\uD800',
    '__proto__',
    'constructor',
    -0,
    NaN,
    Infinity,
    2 ** 64
  ),
  fc.integer({ min: 1, max: 60 }).map((depth) => {
    let v: unknown = 1
    for (let i = 0; i < depth * 1000; i++) v = { v }
    return v
  })
)

type Path = (string | number)[]
function pathsOf(v: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix)
  if (typeof v === 'object' && v !== null) {
    for (const [k, child] of Object.entries(v))
      pathsOf(child, [...prefix, Array.isArray(v) ? Number(k) : k], out)
  }
  return out
}

/** `v` with the value at `path` replaced (or removed when `next` is the REMOVE marker). */
const REMOVE = Symbol('remove')
function setAt(v: unknown, path: Path, next: unknown): unknown {
  if (path.length === 0) return next === REMOVE ? undefined : next
  const [head, ...rest] = path as [string | number, ...Path]
  // An array stays one under an index; a named key (`length` too) makes it an object with it.
  const copy = (
    Array.isArray(v) && typeof head === 'number' ? [...(v as unknown[])] : { ...(v as object) }
  ) as Record<string | number, unknown>
  if (rest.length === 0 && next === REMOVE) delete copy[head]
  else copy[head] = setAt(copy[head], rest, next)
  return copy
}

/** Mutations of a valid input: a field replaced or dropped, a field added, the whole replaced. */
function mutationsOf(input: unknown): fc.Arbitrary<unknown> {
  const paths = pathsOf(input)
  return fc.oneof(
    fc.tuple(fc.constantFrom(...paths), anyValue).map(([p, v]) => setAt(input, p, v)),
    fc.constantFrom(...paths).map((p) => setAt(input, p, REMOVE)),
    fc
      .tuple(fc.constantFrom(...paths), fc.string({ maxLength: 12 }), anyValue)
      .map(([p, k, v]) => setAt(input, [...p, k], v)),
    anyValue
  )
}

const KINDS = new Set<string>(APP_ERROR_KINDS)

async function expectTyped(channel: string, input: unknown): Promise<void> {
  const before = logged.length
  const reply = await t.core.invoke(channel, input)
  expect(typeof reply).toBe('object')
  if (!reply.ok) {
    const e = reply.error
    expect(KINDS.has(e.kind), `${channel}: kind ${e.kind}`).toBe(true)
    expect(typeof e.message).toBe('string')
    expect(e.message.length).toBeGreaterThan(0)
    // With what main logged (the unexpected error's stack), so a failure seen once can be traced.
    const why = logged.slice(before).join('\n')
    expect(e.kind, `${channel} answered internal: ${e.message}\n${why}`).not.toBe('internal')
    expect(e.status ?? 0, `${channel}: the server answered ${e.status}: ${e.message}`).toBeLessThan(500)
  } else {
    // The answer crosses IPC: it must be structured-clone-able plain data.
    expect(() => structuredClone(reply.value)).not.toThrow()
  }
  expect(logged.slice(before).filter((l) => l.startsWith('Unexpected failure'))).toEqual([])
  expect(unhandled).toEqual([])
}

/** Channels that end or switch the session go last, so the others run signed in. */
const LAST = [
  'profiles.save',
  'profiles.remove',
  'session.signIn',
  'session.signInWithToken',
  'session.signUp'
]
const ORDER = [
  ...CHANNELS.filter((c) => !LAST.includes(c) && c !== 'session.startLocal' && c !== 'session.signOut'),
  ...LAST,
  'session.startLocal',
  'session.signOut'
] as Channel[]

describe('every IPC channel through the core answers typed errors only', () => {
  it('covers the whole IPC table', () => {
    expect([...ORDER].sort()).toEqual([...CHANNELS].sort())
  })

  it('rejects unknown channels with a typed error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), anyValue, async (channel, input) => {
        fc.pre(!(CHANNELS as string[]).includes(channel))
        const reply = await t.core.invoke(channel, input)
        expect(reply).toMatchObject({ ok: false, error: { kind: 'validation', code: 'unknown_channel' } })
      }),
      { numRuns: RUNS }
    )
  })

  // What the fuzzer found, pinned: each answered `internal` (an unexpected throw in main) before.
  it('refuses an id with a lone surrogate (encodeURIComponent threw)', async () => {
    const e = await t.fail('tools.get', { id: '\ud800' })
    expect(e).toMatchObject({ kind: 'validation', fields: [{ field: 'id' }] })
    await expectTyped('agentDocuments.list', { agentId: 'a\udfff' })
  })

  it('refuses an input that makes the schema check itself throw (found by this fuzz)', async () => {
    // An object for an id whose `length` is an array holding a prototype-less object: zod's
    // compiled object check compares that array with a number and throws.
    const id: Record<string, unknown> = { 0: 'a', length: [Object.create(null)] }
    for (const channel of ['tags.get', 'agents.delete']) {
      const reply = await t.core.invoke(channel, { id })
      expect(reply).toMatchObject({ ok: false, error: { kind: 'validation', code: 'unreadable_input' } })
      await expectTyped(channel, { id })
    }
  })

  it('refuses JSON fields that are not plain JSON, too deep or too large (JSON.stringify threw)', async () => {
    let deep: unknown = 1
    for (let i = 0; i < 50_000; i++) deep = { deep }
    const cases: [string, unknown][] = [
      ['tools.create', { name: 'T', type: 'SEARCH', metadata: { deep } }],
      ['tools.create', { name: 'T', type: 'SEARCH', metadata: { n: 10n } }],
      ['tools.update', { id: valid['tools.update'].id, patch: { metadata: { b: [[0n]] } } }],
      [
        'documents.create',
        { name: 'D', type: 'PDF', url: 'https://e.com/a', authorization: { m: new Map() } }
      ],
      ['tools.create', { name: 'T', type: 'SEARCH', metadata: { big: 'x'.repeat(300_000) } }],
      [
        'agents.create',
        { name: 'A', type: 'REACT', llm: { provider: 'p', model: 'm' }, tags: [{ id: 'x', n: 1n }] }
      ]
    ]
    for (const [channel, input] of cases) {
      const e = await t.fail(channel as Channel, input)
      expect(e.kind, `${channel} ${e.message}`).toBe('validation')
      await expectTyped(channel, input)
    }
  })

  for (const channel of ORDER) {
    it(channel, async () => {
      await expectTyped(channel, valid[channel])
      await fc.assert(
        fc.asyncProperty(fc.oneof(anyValue, mutationsOf(valid[channel])), (input) =>
          expectTyped(channel, input)
        ),
        { numRuns: RUNS }
      )
    })
  }
})
