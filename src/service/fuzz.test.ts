/**
 * Fuzzing the embedded service over real HTTP (property-based, fast-check): arbitrary methods,
 * paths (every route of the contract with odd ids and queries, and random ones), headers
 * (credentials under both spellings, content types) and bodies (JSON of any shape, deep, large,
 * or not JSON at all). Every answer must be the JSON envelope, and bad input is never a 5xx.
 */
import http from 'node:http'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signUp, startTestServer, type TestServer } from '../../test/support/serviceKit'

const RUNS = Number(process.env.AGENT_DESK_FUZZ_RUNS ?? 150)

let server: TestServer
let token = ''
let agentId = ''

beforeAll(async () => {
  server = await startTestServer()
  const user = await signUp(server.base)
  token = user.token
  const made = await user.api.post('/agents', {
    name: 'Fuzz',
    type: 'REACT',
    llm: { provider: 'p', model: 'm' }
  })
  agentId = (made.data as { id: string }).id
})
afterAll(async () => {
  await server?.stop()
})

const BASES = [
  '/auth/sign-in',
  '/auth/sign-up',
  '/agents',
  '/documents',
  '/tools',
  '/prompts',
  '/tags',
  '/api-tokens',
  '/agent-documents',
  '/agent-tools'
]

interface Probe {
  method: string
  path: string
  headers: Record<string, string>
  body: string | undefined
}

const oddText = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('..', '.', '%', '%zz', '%00', '\ud800', '__proto__', 'constructor', '-1', '1e309', 'null')
)
const segment = oddText.map((s) => {
  try {
    return encodeURIComponent(s)
  } catch {
    return '%ED%A0%80' // a lone surrogate, as a client that does not check would send it
  }
})
const query = fc
  .array(fc.tuple(fc.constantFrom('skip', 'take', 'agentId', 'filter[agentId]', 'x'), segment), {
    maxLength: 3
  })
  .map((pairs) =>
    pairs.length ? `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&')}` : ''
  )
const path = fc.oneof(
  fc.tuple(fc.constantFrom(...BASES), query).map(([b, q]) => `/api/v1${b}${q}`),
  fc
    .tuple(fc.constantFrom(...BASES), fc.oneof(segment, fc.constant('@agent')), query)
    .map(([b, id, q]) => `/api/v1${b}/${id}${q}`),
  fc.array(segment, { maxLength: 5 }).map((parts) => `/api/v1/${parts.join('/')}`),
  fc.array(segment, { maxLength: 3 }).map((parts) => `/${parts.join('/')}`)
)
const method = fc.oneof(
  fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'OPTIONS'),
  fc.stringMatching(/^[A-Z]{1,12}$/)
)
const deepJson = fc.integer({ min: 1, max: 60_000 }).map((n) => '['.repeat(n) + ']'.repeat(n))
const body = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc
    .record(
      {
        name: fc.oneof(fc.string(), fc.jsonValue()),
        type: fc.constantFrom('REACT', 'PDF', 'SEARCH', 'x'),
        llm: fc.jsonValue(),
        url: fc.oneof(fc.webUrl(), fc.string()),
        template: fc.string(),
        color: fc.string({ maxLength: 8 }),
        email: fc.oneof(fc.emailAddress(), fc.string()),
        password: fc.string(),
        metadata: fc.jsonValue(),
        tags: fc.jsonValue(),
        agentId: fc.oneof(fc.string(), fc.constant('@agent')),
        description: fc.string()
      },
      { requiredKeys: [] }
    )
    .map((o) => JSON.stringify(o)),
  deepJson,
  fc.string({ maxLength: 200 }),
  fc.constant('{"a":'.repeat(5) + '1' + '}'.repeat(5)),
  fc.constant('x'.repeat(1_100_000))
)
const headers = fc.record(
  {
    'content-type': fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      '',
      'application/json; charset=latin1'
    ),
    authorization: fc.constantFrom(
      '@token',
      'Bearer @token',
      'Bearer nope',
      'Basic eA==',
      'Bearer ',
      'x'.repeat(9000)
    ),
    autorization: fc.constantFrom('Bearer @token', 'Bearer ...', ''),
    'idempotency-key': fc.string({ maxLength: 300 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
    origin: fc.constantFrom('https://evil.example', 'null')
  },
  { requiredKeys: [] }
)

// (Node's client sends a HEAD request's body as if it were the next request: not a server matter.)
const probe: fc.Arbitrary<Probe> = fc
  .record({ method, path, headers, body })
  .map((p) => (p.method === 'HEAD' ? { ...p, body: undefined } : p))

function send(p: Probe): Promise<{ status: number; contentType: string; text: string }> {
  const fill = (s: string) => s.replace('@token', token).replace('@agent', agentId)
  const url = new URL(server.service.url)
  const hdrs: Record<string, string> = {}
  for (const [k, v] of Object.entries(p.headers)) hdrs[k] = fill(v)
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: p.method,
        path: fill(p.path),
        headers: hdrs,
        agent: false
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8')
          })
        )
        res.on('error', reject)
      }
    )
    // The server may refuse a large body before reading it all: the answer still counts.
    req.on('error', (e: NodeJS.ErrnoException) =>
      e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e)
    )
    req.end(p.body)
  })
}

function checkAnswer(p: Probe, a: { status: number; contentType: string; text: string }) {
  const what = `${p.method} ${p.path.slice(0, 120)} → ${a.status} ${a.text.slice(0, 200)}`
  expect(a.status, what).toBeGreaterThanOrEqual(200)
  expect(a.status, what).toBeLessThan(500)
  if (p.method === 'HEAD' || a.status === 204) return
  expect(a.contentType, what).toMatch(/^application\/json/)
  const json = JSON.parse(a.text) as Record<string, unknown>
  expect(typeof json.success, what).toBe('boolean')
  if (json.success === false) {
    const error = json.error as Record<string, unknown>
    expect(typeof error?.code, what).toBe('string')
    expect(typeof error?.message, what).toBe('string')
  } else {
    expect(a.status, what).toBeLessThan(300)
    expect('data' in json, what).toBe(true)
  }
}

describe('the service answers any request with a JSON envelope, never 5xx for bad input', () => {
  it('arbitrary methods, paths, headers and bodies', async () => {
    await fc.assert(
      fc.asyncProperty(probe, async (p) => checkAnswer(p, await send(p))),
      { numRuns: RUNS }
    )
  }, 60_000)

  it('a 50,000-deep JSON value is a 400, not a 500', async () => {
    const deep = '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000)
    const cases: [string, string, string][] = [
      ['POST', '/api/v1/tools', `{"name":"T","type":"SEARCH","metadata":${deep}}`],
      ['POST', '/api/v1/documents', `{"name":"D","type":"PDF","url":"https://e.com/a","metadata":${deep}}`],
      ['POST', '/api/v1/auth/sign-in', `{"email":${deep},"password":"x"}`],
      ['POST', '/api/v1/agents', deep]
    ]
    for (const [m, path, body] of cases) {
      const p: Probe = {
        method: m,
        path,
        headers: { 'content-type': 'application/json', authorization: 'Bearer @token' },
        body
      }
      const a = await send(p)
      checkAnswer(p, a)
      expect(a.status, path).toBe(400)
    }
  })

  it('a request Node cannot parse as HTTP still gets the JSON envelope', async () => {
    for (const m of ['A', 'GETX', 'BREW']) {
      const p: Probe = { method: m, path: '/api/v1/agents', headers: {}, body: undefined }
      const a = await send(p)
      checkAnswer(p, a)
      expect(a.status).toBe(400)
    }
  })
})
