/**
 * Helpers for the service's black-box tests: a real server on a free port in a temp data dir,
 * and a tiny HTTP client that returns status, headers and parsed JSON.
 * (Not a test file itself; other helpers may reuse it to get a live peer.)
 */
import { rmSync } from 'node:fs'
import { startService, type RunningService, type ServiceOptions } from '../../src/service'
import { tempDir } from './tempDirs'

export interface TestServer {
  service: RunningService
  dataDir: string
  /** `${url}/api/v1` */
  base: string
  /** Lines the service logged. */
  logs: string[]
  restart(extra?: Partial<ServiceOptions>): Promise<void>
  stop(): Promise<void>
}

export async function startTestServer(extra: Partial<ServiceOptions> = {}): Promise<TestServer> {
  const dataDir = tempDir('agent-desk-service-')
  const logs: string[] = []
  const opts = (more: Partial<ServiceOptions>): ServiceOptions => ({
    dataDir,
    scryptCost: 16,
    logger: (line) => logs.push(line),
    ...extra,
    ...more
  })
  const t: TestServer = {
    service: await startService(opts({})),
    dataDir,
    base: '',
    logs,
    async restart(more = {}) {
      await t.service.close()
      t.service = await startService(opts(more))
      t.base = `${t.service.url}/api/v1`
    },
    async stop() {
      await t.service.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
  t.base = `${t.service.url}/api/v1`
  return t
}

export interface Reply {
  status: number
  headers: Headers
  json: unknown
  /** `json.data` when the body was an envelope. */
  data: unknown
  text: string
}

export interface CallOptions {
  token?: string
  /** Which header carries the token; default the document's spelling `Autorization`. */
  header?: 'Autorization' | 'Authorization'
  body?: unknown
  /** Sent verbatim instead of JSON.stringify(body). */
  raw?: string
  contentType?: string | null
  headers?: Record<string, string>
}

export async function call(base: string, method: string, path: string, o: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...o.headers }
  if (o.token !== undefined) headers[o.header ?? 'Autorization'] = `Bearer ${o.token}`
  let body: string | undefined
  if (o.raw !== undefined) body = o.raw
  else if (o.body !== undefined) body = JSON.stringify(o.body)
  if (body !== undefined && o.contentType !== null)
    headers['content-type'] = o.contentType ?? 'application/json'
  const res = await fetch(`${base}${path}`, { method, headers, body })
  const text = await res.text()
  let json: unknown = undefined
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {
    json = undefined
  }
  const data =
    typeof json === 'object' && json !== null && 'data' in json ? (json as { data: unknown }).data : undefined
  return { status: res.status, headers: res.headers, json, data, text }
}

/** A client bound to a base URL and (optionally) a token. */
export function client(base: string, token?: string) {
  const withToken = (o: CallOptions = {}): CallOptions =>
    token !== undefined && o.token === undefined ? { ...o, token } : o
  return {
    get: (path: string, o?: CallOptions) => call(base, 'GET', path, withToken(o)),
    del: (path: string, o?: CallOptions) => call(base, 'DELETE', path, withToken(o)),
    post: (path: string, body: unknown, o?: CallOptions) =>
      call(base, 'POST', path, withToken({ ...o, body })),
    patch: (path: string, body: unknown, o?: CallOptions) =>
      call(base, 'PATCH', path, withToken({ ...o, body })),
    call: (method: string, path: string, o?: CallOptions) => call(base, method, path, withToken(o))
  }
}
export type Client = ReturnType<typeof client>

let counter = 0
/** Signs up a fresh user and returns a client bound to its session token. */
export async function signUp(base: string, name = 'Test User') {
  counter += 1
  const email = `user${counter}-${Date.now()}@example.com`
  const password = 'correct horse battery'
  const r = await call(base, 'POST', '/auth/sign-up', { body: { email, password, name } })
  if (r.status !== 200) throw new Error(`sign-up failed: ${r.status} ${r.text}`)
  const data = r.data as { token: string; user: { id: string } }
  return { email, password, token: data.token, userId: data.user.id, api: client(base, data.token) }
}
