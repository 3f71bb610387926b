/**
 * The main process's client for the Agent Management Service (service-api.md), used for remote
 * servers and the embedded Local workspace alike.
 *
 * - Sends `Bearer <token>` in BOTH `Autorization` (the document's spelling) and `Authorization`
 *   (what the origin read). JSON bodies carry `Content-Type: application/json`.
 * - A call succeeds only on 2xx AND an envelope with `success: true`. Everything else becomes one
 *   AppError (see normalize.ts). Every method throws AppError and nothing else.
 * - `data` is parsed with the tolerant schemas of src/shared. Lists drop items that cannot be
 *   used (no id) instead of failing; `data: null` (or `{}`) where an object was due means "not
 *   found", which is how the origin answered it.
 * - Fields the server left out of an answer are filled from the request when the client knows
 *   them (document create has no `name`, links may lack their ids); server values always win.
 * - Operations service-api.md does not show (EXTRA_OPERATIONS) are detected: a route-miss
 *   404/405 marks them 'not_offered' in the CapabilityStore and throws kind 'not_offered'; later
 *   calls throw at once without a request. A success marks them 'offered'.
 * - Timeouts: one deadline (timeoutMs) for the whole exchange, headers and body. Idempotent GETs
 *   are retried (getRetries times, 150 ms × attempt backoff) on network failures only
 *   (refused, reset, unreachable, DNS try-again) — never after a timeout, since a slow server
 *   would then keep the user waiting several deadlines, and never on a too-large answer. Other
 *   methods are retried once only when Node reports the request went out on a kept-alive socket
 *   the server had already closed (the request was then never processed).
 * - Sign-in: a rejected credential is kind 'unauthorized' with "Wrong e-mail or password" and
 *   does NOT call onUnauthorized (nothing to end yet); sign-up likewise. For every other call
 *   'unauthorized' (401, or 403 whose words mean a rejected credential) calls onUnauthorized.
 * - No token for an operation that needs one: AppError 'signed_out', no request.
 */
import { z } from 'zod'
import type { Capabilities, Capability } from '../../shared/ipc'
import { AppError, type AppErrorData } from '../../shared/errors'
import { SignInResponse } from '../../shared/auth'
import { User } from '../../shared/user'
import { Agent, type AgentCreate, type AgentUpdate } from '../../shared/agent'
import { Document, type DocumentCreate } from '../../shared/document'
import { Tool, type ToolCreate, type ToolUpdate } from '../../shared/tool'
import { Prompt, type PromptCreate, type PromptUpdate } from '../../shared/prompt'
import { Tag } from '../../shared/tag'
import { ApiToken } from '../../shared/apiToken'
import { AgentDocument, AgentTool } from '../../shared/links'
import { createAgents, send, TransportError, type RawResponse } from './http'
import { failureFromResponse, isRecord, isRouteMiss, parseBody } from './normalize'

export type AgentCreateParsed = z.output<typeof AgentCreate>
export type AgentUpdateParsed = z.output<typeof AgentUpdate>
export type DocumentCreateParsed = z.output<typeof DocumentCreate>
export type ToolCreateParsed = z.output<typeof ToolCreate>
export type ToolUpdateParsed = z.output<typeof ToolUpdate>
export type PromptCreateParsed = z.output<typeof PromptCreate>
export type PromptUpdateParsed = z.output<typeof PromptUpdate>

// ---------------------------------------------------------------------------------------------
// Capabilities
// ---------------------------------------------------------------------------------------------

/**
 * Operations service-api.md does not show (decisions.md lists them), keyed like IPC channels,
 * with the words used in "This server does not offer …".
 */
export const EXTRA_OPERATIONS = {
  'documents.list': 'a list of documents',
  'prompts.list': 'a list of prompts',
  'prompts.create': 'creating prompts',
  'prompts.delete': 'deleting prompts',
  'tags.list': 'a list of tags',
  'tags.get': 'opening a tag',
  'tags.update': 'changing tags',
  'tags.delete': 'deleting tags',
  'apiTokens.delete': 'deleting API tokens',
  'tools.create': 'creating tools',
  'tools.delete': 'deleting tools',
  'agents.update': 'changing agents',
  'agentDocuments.list': 'a list of agent-document links',
  'agentDocuments.delete': 'removing agent-document links',
  'agentTools.list': 'a list of agent-tool links',
  'agentTools.get': 'opening an agent-tool link',
  'agentTools.delete': 'removing agent-tool links',
  'session.signUp': 'creating accounts'
} as const
export type ExtraOperation = keyof typeof EXTRA_OPERATIONS

export function isExtraOperation(op: string): op is ExtraOperation {
  return Object.prototype.hasOwnProperty.call(EXTRA_OPERATIONS, op)
}

export interface CapabilityStore {
  get(op: string): Capability
  set(op: string, value: Capability): void
  all(): Capabilities
}

export function memoryCapabilityStore(initial?: Capabilities): CapabilityStore {
  const map = new Map<string, Capability>(Object.entries(initial ?? {}))
  return {
    get: (op) => map.get(op) ?? 'unknown',
    set: (op, value) => {
      map.set(op, value)
    },
    all: () => Object.fromEntries(map)
  }
}

// ---------------------------------------------------------------------------------------------
// Public interface
// ---------------------------------------------------------------------------------------------

export interface ApiClientOptions {
  /** Profile base URL WITHOUT /api/v1 (a trailing slash or a typed /api/v1 is stripped). */
  baseUrl: string
  getToken: () => string | null
  capabilities: CapabilityStore
  /** Deadline for a whole exchange. Default 15000. */
  timeoutMs?: number
  /** Larger answers fail with 'too_large'. Default 64 MiB. */
  maxResponseBytes?: number
  /** Retries of idempotent GETs on network failures (not timeouts). Default 2. */
  getRetries?: number
  /** Called when the server rejected the credential (not for sign-in / sign-up). */
  onUnauthorized?: (err: AppError) => void
}

export interface Crud<T, C, U> {
  list(): Promise<T[]>
  get(id: string): Promise<T>
  create(body: C): Promise<T>
  update(id: string, patch: U): Promise<T>
  delete(id: string): Promise<null>
}

export interface ApiClient {
  readonly baseUrl: string
  signIn(body: { email: string; password: string }): Promise<{ token: string; user?: User }>
  signUp(body: { email: string; password: string; name: string }): Promise<{ token?: string; user?: User }>
  agents: Crud<Agent, AgentCreateParsed, AgentUpdateParsed>
  documents: Crud<Document, DocumentCreateParsed, { name: string }>
  tools: Crud<Tool, ToolCreateParsed, ToolUpdateParsed>
  prompts: Crud<Prompt, PromptCreateParsed, PromptUpdateParsed>
  tags: Crud<Tag, { name: string; color: string; userId: string }, { name?: string; color?: string }>
  apiTokens: {
    list(): Promise<ApiToken[]>
    get(id: string): Promise<ApiToken>
    create(b: { description: string }): Promise<ApiToken>
    delete(id: string): Promise<null>
  }
  agentDocuments: {
    list(f?: { agentId?: string }): Promise<AgentDocument[]>
    get(id: string): Promise<AgentDocument>
    create(b: { agentId: string; documentId: string }): Promise<AgentDocument>
    delete(id: string): Promise<null>
  }
  agentTools: {
    list(f?: { agentId?: string }): Promise<AgentTool[]>
    get(id: string): Promise<AgentTool>
    create(b: { agentId: string; toolId: string }): Promise<AgentTool>
    delete(id: string): Promise<null>
  }
}

/** `https://h/x/` → `https://h/x`; `https://h/api/v1/` → `https://h`. Throws AppError 'validation'. */
export function normalizeBaseUrl(input: string): string {
  let s = input.trim()
  let url: URL
  try {
    url = new URL(s)
  } catch {
    throw new AppError({
      kind: 'validation',
      message: 'Enter the server address, e.g. https://ams.example.com',
      fields: [{ field: 'baseUrl', message: 'Not a valid address' }]
    })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError({
      kind: 'validation',
      message: 'The server address must start with http:// or https://',
      fields: [{ field: 'baseUrl', message: 'Use http or https' }]
    })
  }
  url.search = ''
  url.hash = ''
  s = url.toString().replace(/\/+$/, '')
  s = s.replace(/\/api\/v1$/i, '').replace(/\/+$/, '')
  return s
}

// ---------------------------------------------------------------------------------------------
// Implementation
// ---------------------------------------------------------------------------------------------

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'

interface Call {
  /** Operation name in IPC-channel style ('agents.get'); extras are looked up by it. */
  op: string
  method: Method
  path: string
  query?: Record<string, string>
  body?: unknown
  auth: boolean
  scope: 'collection' | 'item'
  /** Singular noun for messages ("agent"). */
  what: string
}

const RETRYABLE_NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ETIMEDOUT'
])

const NETWORK_DETAILS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'unknown host name',
  EAI_AGAIN: 'name lookup failed',
  ECONNRESET: 'connection closed by the server',
  EPIPE: 'connection closed by the server',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out'
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

function label(op: ExtraOperation): string {
  return EXTRA_OPERATIONS[op]
}

function notOffered(op: ExtraOperation, status?: number): AppError {
  const data: AppErrorData = {
    kind: 'not_offered',
    message: `This server does not offer ${label(op)}`,
    code: op
  }
  if (status !== undefined) data.status = status
  return new AppError(data)
}

function isEmptyObject(v: unknown): boolean {
  return isRecord(v) && Object.keys(v).length === 0
}

/** Fills keys the server left out (undefined) with what the client sent; server values win. */
function fillMissing<T extends Record<string, unknown>>(result: T, known: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...result }
  for (const [k, v] of Object.entries(known)) {
    if (v !== undefined && out[k] === undefined) out[k] = v
  }
  return out as T
}

function pick(obj: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const k of keys) if (obj[k] !== undefined) out[k] = obj[k]
  return out
}

export function createApiClient(opts: ApiClientOptions): ApiClient {
  const baseUrl = normalizeBaseUrl(opts.baseUrl)
  const host = new URL(baseUrl).host
  const timeoutMs = opts.timeoutMs ?? 15_000
  const maxResponseBytes = opts.maxResponseBytes ?? 64 * 1024 * 1024
  const getRetries = Math.max(0, opts.getRetries ?? 2)
  const caps = opts.capabilities
  const agents = createAgents()

  function transportToAppError(err: unknown): AppError {
    if (err instanceof TransportError) {
      if (err.failure === 'timeout') {
        const limit = timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`
        return new AppError({ kind: 'timeout', message: `${host} did not answer within ${limit}` })
      }
      if (err.failure === 'too_large') {
        const mb = maxResponseBytes / (1024 * 1024)
        const size =
          mb >= 1 ? `${Math.round(mb)} MiB` : `${Math.max(1, Math.round(maxResponseBytes / 1024))} KiB`
        return new AppError({ kind: 'too_large', message: `The server's answer is too large (over ${size})` })
      }
      if (/^(CERT_|ERR_TLS|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_SSL)/.test(err.code)) {
        return new AppError({
          kind: 'network',
          message: `Cannot reach ${host} securely (${err.code})`,
          code: err.code
        })
      }
      const detail = NETWORK_DETAILS[err.code]
      return new AppError({
        kind: 'network',
        message: detail ? `Cannot reach ${host} (${detail})` : `Cannot reach ${host}`,
        code: err.code
      })
    }
    if (err instanceof AppError) return err
    const message = err instanceof Error ? err.message : String(err)
    return new AppError({ kind: 'internal', message: `The request could not be sent: ${message}` })
  }

  async function exchange(call: Call, headers: Record<string, string>, body: string | undefined) {
    const url = new URL(`${baseUrl}/api/v1${call.path}`)
    for (const [k, v] of Object.entries(call.query ?? {})) url.searchParams.set(k, v)
    const idempotent = call.method === 'GET'
    let attempt = 0
    for (;;) {
      try {
        const sendOpts: Parameters<typeof send>[0] = {
          method: call.method,
          url,
          headers,
          timeoutMs,
          maxResponseBytes,
          agents
        }
        if (body !== undefined) sendOpts.body = body
        return await send(sendOpts)
      } catch (err) {
        const retry =
          err instanceof TransportError &&
          err.failure === 'network' &&
          ((idempotent && attempt < getRetries && RETRYABLE_NETWORK_CODES.has(err.code)) ||
            (!idempotent &&
              attempt === 0 &&
              err.reusedSocket &&
              !err.responseStarted &&
              err.code === 'ECONNRESET'))
        if (!retry) throw transportToAppError(err)
        attempt += 1
        if (idempotent) await sleep(150 * attempt)
      }
    }
  }

  /** Performs a call; returns the envelope's `data` (undefined becomes null). Throws AppError. */
  async function request(call: Call): Promise<unknown> {
    const extra = isExtraOperation(call.op) ? call.op : null
    if (extra && caps.get(extra) === 'not_offered') throw notOffered(extra)

    const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': 'AgentDesk' }
    if (call.auth) {
      const token = opts.getToken()
      if (!token) throw new AppError({ kind: 'signed_out', message: 'You are not signed in' })
      if (!/^[\x21-\x7e]+$/.test(token)) {
        const err = new AppError({
          kind: 'unauthorized',
          message: 'The stored credential is not valid: sign in again'
        })
        opts.onUnauthorized?.(err)
        throw err
      }
      headers.Authorization = `Bearer ${token}`
      headers.Autorization = `Bearer ${token}`
    }
    let body: string | undefined
    if (call.body !== undefined) {
      body = JSON.stringify(call.body)
      headers['Content-Type'] = 'application/json'
    }

    const raw: RawResponse = await exchange(call, headers, body)
    const parsed = parseBody(raw)
    const ok2xx = raw.status >= 200 && raw.status < 300

    if (ok2xx && parsed.kind === 'json' && isRecord(parsed.value) && parsed.value.success === true) {
      if (extra && caps.get(extra) !== 'offered') caps.set(extra, 'offered')
      return parsed.value.data ?? null
    }
    // A bodiless 204 to a delete is a success on any sensible server.
    if (raw.status === 204 && call.method === 'DELETE' && parsed.kind === 'empty') {
      if (extra && caps.get(extra) !== 'offered') caps.set(extra, 'offered')
      return null
    }

    if (extra && !ok2xx && isRouteMiss(raw, parsed, call.scope)) {
      caps.set(extra, 'not_offered')
      throw notOffered(extra, raw.status)
    }
    const err = failureFromResponse(raw, parsed, {
      host,
      what: call.what,
      signIn: call.op === 'session.signIn'
    })
    if (err.kind === 'unauthorized' && call.auth) opts.onUnauthorized?.(err)
    throw err
  }

  function protocol(message: string): AppError {
    return new AppError({ kind: 'protocol', message })
  }

  function parseOne<S extends z.ZodType<Record<string, unknown>>>(
    schema: S,
    data: unknown,
    what: string
  ): z.output<S> {
    if (data === null || data === undefined || isEmptyObject(data)) {
      throw new AppError({ kind: 'not_found', message: `The ${what} was not found`, code: 'not_found' })
    }
    if (!isRecord(data)) throw protocol(`The server's answer for the ${what} was not an object`)
    const r = schema.safeParse(data)
    if (r.success) return r.data
    if (data.id === undefined || data.id === null || data.id === '') {
      throw new AppError({ kind: 'not_found', message: `The ${what} was not found`, code: 'not_found' })
    }
    throw protocol(`The server's answer for the ${what} could not be read`)
  }

  function parseList<S extends z.ZodType>(schema: S, data: unknown, what: string): z.output<S>[] {
    if (!Array.isArray(data)) throw protocol(`The server's list of ${what}s was not a list`)
    const out: z.output<S>[] = []
    for (const item of data) {
      const r = schema.safeParse(item)
      if (r.success) out.push(r.data)
    }
    return out
  }

  const enc = encodeURIComponent

  async function get<S extends z.ZodType<Record<string, unknown>>>(
    op: string,
    path: string,
    schema: S,
    what: string
  ): Promise<z.output<S>> {
    return parseOne(schema, await request({ op, method: 'GET', path, auth: true, scope: 'item', what }), what)
  }
  async function list<S extends z.ZodType>(
    op: string,
    path: string,
    schema: S,
    what: string,
    query?: Record<string, string>
  ): Promise<z.output<S>[]> {
    const call: Call = { op, method: 'GET', path, auth: true, scope: 'collection', what }
    if (query) call.query = query
    return parseList(schema, await request(call), what)
  }
  async function write<S extends z.ZodType<Record<string, unknown>>>(
    op: string,
    method: 'POST' | 'PATCH',
    path: string,
    body: unknown,
    schema: S,
    what: string,
    known: Record<string, unknown>
  ): Promise<z.output<S>> {
    const scope = method === 'POST' ? 'collection' : 'item'
    const data = await request({ op, method, path, body, auth: true, scope, what })
    return fillMissing(parseOne(schema, data, what), known)
  }
  async function del(op: string, path: string, what: string): Promise<null> {
    await request({ op, method: 'DELETE', path, auth: true, scope: 'item', what })
    return null
  }

  const AgentToolObject = AgentTool as unknown as z.ZodType<AgentTool & Record<string, unknown>>

  function linkFilter<T extends { agentId?: string | undefined }>(
    items: T[],
    agentId: string | undefined
  ): T[] {
    // A server that ignores the filter still must not show another agent's links.
    return agentId === undefined
      ? items
      : items.filter((l) => l.agentId === undefined || l.agentId === agentId)
  }

  const client: ApiClient = {
    baseUrl,

    async signIn(b) {
      const data = await request({
        op: 'session.signIn',
        method: 'POST',
        path: '/auth/sign-in',
        body: { email: b.email, password: b.password },
        auth: false,
        scope: 'collection',
        what: 'account'
      })
      if (data === null || isEmptyObject(data)) {
        throw new AppError({
          kind: 'unauthorized',
          message: 'Wrong e-mail or password',
          code: 'invalid_credentials'
        })
      }
      const r = SignInResponse.safeParse(data)
      if (!r.success) throw protocol('The server accepted the sign-in but sent no token')
      const out: { token: string; user?: User } = { token: r.data.token }
      if (r.data.user) out.user = r.data.user
      return out
    },

    async signUp(b) {
      const data = await request({
        op: 'session.signUp',
        method: 'POST',
        path: '/auth/sign-up',
        body: { email: b.email, password: b.password, name: b.name },
        auth: false,
        scope: 'collection',
        what: 'account'
      })
      const out: { token?: string; user?: User } = {}
      if (isRecord(data)) {
        if (typeof data.token === 'string' && data.token) out.token = data.token
        const nested = User.safeParse(data.user)
        const flat = User.safeParse(data)
        if (nested.success) out.user = nested.data
        else if (flat.success && typeof data.token !== 'string') out.user = flat.data
      }
      return out
    },

    agents: {
      list: () => list('agents.list', '/agents', Agent, 'agent'),
      get: (id) => get('agents.get', `/agents/${enc(id)}`, Agent, 'agent'),
      create: (b) =>
        write(
          'agents.create',
          'POST',
          '/agents',
          b,
          Agent,
          'agent',
          pick(b, ['name', 'type', 'llm', 'hasMemory', 'promptId', 'documentId'])
        ),
      update: (id, patch) =>
        write(
          'agents.update',
          'PATCH',
          `/agents/${enc(id)}`,
          patch,
          Agent,
          'agent',
          pick(patch, ['name', 'type', 'llm', 'hasMemory', 'promptId', 'documentId'])
        ),
      delete: (id) => del('agents.delete', `/agents/${enc(id)}`, 'agent')
    },

    documents: {
      list: () => list('documents.list', '/documents', Document, 'document'),
      get: (id) => get('documents.get', `/documents/${enc(id)}`, Document, 'document'),
      create: (b) =>
        write(
          'documents.create',
          'POST',
          '/documents',
          b,
          Document,
          'document',
          pick(b, ['name', 'type', 'url', 'from_page', 'to_page', 'metadata'])
        ),
      update: (id, patch) =>
        write(
          'documents.rename',
          'PATCH',
          `/documents/${enc(id)}`,
          { name: patch.name },
          Document,
          'document',
          { name: patch.name }
        ),
      delete: (id) => del('documents.delete', `/documents/${enc(id)}`, 'document')
    },

    tools: {
      list: () => list('tools.list', '/tools', Tool, 'tool'),
      get: (id) => get('tools.get', `/tools/${enc(id)}`, Tool, 'tool'),
      create: (b) =>
        write(
          'tools.create',
          'POST',
          '/tools',
          b,
          Tool,
          'tool',
          pick(b, ['name', 'type', 'description', 'metadata'])
        ),
      update: (id, patch) =>
        write(
          'tools.update',
          'PATCH',
          `/tools/${enc(id)}`,
          patch,
          Tool,
          'tool',
          pick(patch, ['name', 'type', 'description', 'metadata'])
        ),
      delete: (id) => del('tools.delete', `/tools/${enc(id)}`, 'tool')
    },

    prompts: {
      list: () => list('prompts.list', '/prompts', Prompt, 'prompt'),
      get: (id) => get('prompts.get', `/prompts/${enc(id)}`, Prompt, 'prompt'),
      create: (b) =>
        write(
          'prompts.create',
          'POST',
          '/prompts',
          b,
          Prompt,
          'prompt',
          pick(b, ['name', 'template', 'input_variables'])
        ),
      update: (id, patch) =>
        write(
          'prompts.update',
          'PATCH',
          `/prompts/${enc(id)}`,
          patch,
          Prompt,
          'prompt',
          pick(patch, ['name', 'template', 'input_variables'])
        ),
      delete: (id) => del('prompts.delete', `/prompts/${enc(id)}`, 'prompt')
    },

    tags: {
      list: () => list('tags.list', '/tags', Tag, 'tag'),
      get: (id) => get('tags.get', `/tags/${enc(id)}`, Tag, 'tag'),
      create: (b) => write('tags.create', 'POST', '/tags', b, Tag, 'tag', pick(b, ['name', 'userId'])),
      update: (id, patch) =>
        write('tags.update', 'PATCH', `/tags/${enc(id)}`, patch, Tag, 'tag', pick(patch, ['name'])),
      delete: (id) => del('tags.delete', `/tags/${enc(id)}`, 'tag')
    },

    apiTokens: {
      list: () => list('apiTokens.list', '/api-tokens', ApiToken, 'API token'),
      get: (id) => get('apiTokens.get', `/api-tokens/${enc(id)}`, ApiToken, 'API token'),
      create: (b) =>
        write(
          'apiTokens.create',
          'POST',
          '/api-tokens',
          { description: b.description },
          ApiToken,
          'API token',
          {
            description: b.description
          }
        ),
      delete: (id) => del('apiTokens.delete', `/api-tokens/${enc(id)}`, 'API token')
    },

    agentDocuments: {
      list: async (f) => {
        const query: Record<string, string> = { expand: 'true' }
        if (f?.agentId !== undefined) query['filter[agentId]'] = f.agentId
        const items = await list(
          'agentDocuments.list',
          '/agent-documents',
          AgentDocument,
          'agent-document link',
          query
        )
        return linkFilter(items, f?.agentId)
      },
      get: (id) =>
        get('agentDocuments.get', `/agent-documents/${enc(id)}`, AgentDocument, 'agent-document link'),
      create: (b) =>
        write(
          'agentDocuments.create',
          'POST',
          '/agent-documents',
          { agentId: b.agentId, documentId: b.documentId },
          AgentDocument,
          'agent-document link',
          { agentId: b.agentId, documentId: b.documentId }
        ),
      delete: (id) => del('agentDocuments.delete', `/agent-documents/${enc(id)}`, 'agent-document link')
    },

    agentTools: {
      list: async (f) => {
        const query: Record<string, string> = { expand: 'true' }
        if (f?.agentId !== undefined) query['filter[agentId]'] = f.agentId
        const items = await list('agentTools.list', '/agent-tools', AgentTool, 'agent-tool link', query)
        return linkFilter(items, f?.agentId)
      },
      get: async (id) => {
        const data = await request({
          op: 'agentTools.get',
          method: 'GET',
          path: `/agent-tools/${enc(id)}`,
          auth: true,
          scope: 'item',
          what: 'agent-tool link'
        })
        return parseLink(data, {})
      },
      create: async (b) => {
        const data = await request({
          op: 'agentTools.create',
          method: 'POST',
          path: '/agent-tools',
          body: { agentId: b.agentId, toolId: b.toolId },
          auth: true,
          scope: 'collection',
          what: 'agent-tool link'
        })
        return parseLink(data, { agentId: b.agentId, toolId: b.toolId })
      },
      delete: (id) => del('agentTools.delete', `/agent-tools/${enc(id)}`, 'agent-tool link')
    }
  }

  /** Agent-tool links may have no id on a minimal server; `{}` or null still means not found. */
  function parseLink(data: unknown, known: Record<string, unknown>): AgentTool {
    if (data === null || data === undefined || isEmptyObject(data)) {
      throw new AppError({
        kind: 'not_found',
        message: 'The agent-tool link was not found',
        code: 'not_found'
      })
    }
    const r = AgentToolObject.safeParse(data)
    if (!r.success) throw protocol("The server's answer for the agent-tool link could not be read")
    return fillMissing(r.data, known)
  }

  return client
}
