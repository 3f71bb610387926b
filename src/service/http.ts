/**
 * The HTTP plumbing of the embedded service: error type, envelopes, body reading and routing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { z } from 'zod'
import { issuesToFields, type ErrorCode, type FieldIssue } from '../shared'

/** The contract's codes, and the service's own for a reused Idempotency-Key (422). */
export type ServiceErrorCode = ErrorCode | 'idempotency_key_reused'

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ServiceErrorCode,
    message: string,
    readonly details?: FieldIssue[],
    readonly headers?: Record<string, string>
  ) {
    super(message)
    this.name = 'HttpError'
  }
}

export const badRequest = (message: string, details?: FieldIssue[]) =>
  new HttpError(400, 'bad_request', message, details)
export const invalid = (details: FieldIssue[], message = 'The request is not valid') =>
  new HttpError(400, 'validation_failed', message, details)
export const notFound = (what = 'Resource') => new HttpError(404, 'not_found', `${what} not found`)
export const conflict = (message: string) => new HttpError(409, 'conflict', message)
export const unauthorized = (message = 'Missing or invalid credential') =>
  new HttpError(401, 'unauthorized', message)
export const forbidden = (message: string) => new HttpError(403, 'forbidden', message)

/** Parses with a zod schema, turning issues into a 400 with one detail per field. */
export function validate<T extends z.ZodType>(schema: T, value: unknown, prefix = ''): z.infer<T> {
  const r = schema.safeParse(value)
  if (r.success) return r.data
  const details = issuesToFields(r.error.issues).map((d) =>
    prefix ? { field: d.field === '(body)' ? prefix : `${prefix}.${d.field}`, message: d.message } : d
  )
  throw invalid(details)
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' }

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers?: Record<string, string>
) {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    ...JSON_HEADERS,
    'content-length': Buffer.byteLength(text),
    ...headers
  })
  res.end(text)
}

/** `data` that is already JSON text (built by SQLite), spliced into the envelope as is. */
export class RawJson {
  constructor(readonly json: string) {}
}

/**
 * `data` that is a JSON array made a part at a time (each part: items joined by commas), sent as
 * its parts are made (`sendParts`): a list too long to be made whole before its first byte goes.
 */
export class JsonArrayParts {
  constructor(readonly parts: Generator<string, void, undefined>) {}
}

/** The success envelope's text before its `data`. */
const OK_HEAD = '{"success":true,"data":'

/** The text of the success envelope around `data` (parts of an array are joined: all of them read). */
export function okText(data: unknown): string {
  const json =
    data instanceof RawJson
      ? data.json
      : data instanceof JsonArrayParts
        ? `[${[...data.parts].join(',')}]`
        : data === undefined
          ? 'null'
          : JSON.stringify(data)
  return `${OK_HEAD}${json}}`
}

/**
 * How long an answer sent in parts may wait for the client to take its bytes before the
 * connection is cut: meanwhile its rows' snapshot is held open (reads.ts).
 */
export const STALL_MS = 30_000

/**
 * Answers shorter than this go whole, with their length: the app reads an answer in steps from
 * 2 MB (main's LARGE_ANSWER_BYTES), so a shorter one gains nothing from coming sooner. Sent in
 * parts, lists of 1,000 agents (1 MB) took 1.2–1.6× their floor in main, against 0.9–1.1× whole.
 */
export const WHOLE_CHARS = 2 * 1024 * 1024

export interface PartsOptions {
  stallMs?: number
  wholeChars?: number
}

/**
 * Sends the success envelope around `data`'s parts. Those of the first `wholeChars` characters
 * are made first (a part a turn of the event loop); where the array ends within them it goes
 * whole, with its length. Otherwise it goes in chunks, each part written as soon as it is made:
 * the next part is made in a later turn (other requests are served between parts), once the
 * client has taken what was written. The parts are let go (`return()`) whatever happens: the
 * client went away, or did not read for `stallMs` (the connection is cut).
 */
export async function sendParts(
  res: ServerResponse,
  data: JsonArrayParts,
  { stallMs = STALL_MS, wholeChars = WHOLE_CHARS }: PartsOptions = {}
): Promise<void> {
  const parts = data.parts
  let gone = false
  res.once('close', () => (gone = true))
  try {
    const head: string[] = []
    let chars = 0
    let next = parts.next()
    while (!next.done && chars < wholeChars) {
      head.push(next.value)
      chars += next.value.length
      await nextTurn()
      if (gone) return
      next = parts.next()
    }
    if (next.done) return sendText(res, 200, okText(new RawJson(`[${head.join(',')}]`)))
    res.writeHead(200, JSON_HEADERS)
    res.write(`${OK_HEAD}[${head.join(',')}`)
    let comma = head.length > 0
    while (!next.done) {
      // A turn of the event loop first: where the socket takes a part at once, 'drain' comes
      // without one, and the next part would be made before anything else is served.
      await nextTurn()
      if (!gone && res.writableNeedDrain) await drained(res, stallMs)
      if (gone) return
      res.write(comma ? `,${next.value}` : next.value)
      comma = true
      next = parts.next()
    }
    res.end(']}')
  } finally {
    parts.return()
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Resolves once `res` takes more (or closes); cuts the connection when it has not after `ms`. */
function drained(res: ServerResponse, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer)
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    const timer = setTimeout(() => res.destroy(), ms)
    res.on('drain', done)
    res.on('close', done)
  })
}

export function sendOk(res: ServerResponse, data: unknown, status = 200) {
  sendText(res, status, okText(data))
}

/** Sends an envelope that is already JSON text (a replayed answer). */
export function sendText(res: ServerResponse, status: number, text: string) {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text)
  })
  res.end(text)
}

/**
 * The answer to a request that failed with `e`: an HttpError as it is; SQLite's SQLITE_FULL (the
 * disk is full, or the file may grow no more) in words a user can act on; anything else a 500
 * that tells nothing of the service's insides.
 */
export function failureOf(e: unknown): HttpError {
  if (e instanceof HttpError) return e
  const code = (e as { code?: unknown } | null)?.code
  if (typeof code === 'string' && code.startsWith('SQLITE_FULL'))
    return new HttpError(
      500,
      'internal',
      "The service's disk is full, so the change was not saved: free some space and try again"
    )
  return new HttpError(500, 'internal', 'Something went wrong in the service; the request was not completed')
}

export function sendError(res: ServerResponse, err: HttpError) {
  sendJson(
    res,
    err.status,
    {
      success: false,
      data: null,
      error: { code: err.code, message: err.message, details: err.details ?? [] }
    },
    err.headers
  )
}

/** True for `application/json` and `application/<x>+json`, with any parameters. */
export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false
  const type = value.split(';', 1)[0]?.trim().toLowerCase() ?? ''
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
}

/** Reads the request body, failing with 413 once it exceeds `limit` bytes. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) {
    return Promise.reject(tooLarge(limit))
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let failed = false
    req.on('data', (chunk: Buffer) => {
      if (failed) return
      size += chunk.length
      if (size > limit) {
        failed = true
        chunks.length = 0
        reject(tooLarge(limit))
        return
      }
      chunks.push(chunk)
    })
    let ended = false
    req.on('end', () => {
      ended = true
      if (!failed) resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks))
    })
    req.on('close', () => {
      if (!ended && !failed) {
        failed = true
        reject(new HttpError(400, 'bad_request', 'The request body was cut off'))
      }
    })
    req.on('error', (e) => {
      if (!failed) {
        failed = true
        reject(e)
      }
    })
  })
}

function tooLarge(limit: number) {
  return new HttpError(413, 'payload_too_large', `The request body is larger than ${limit} bytes`)
}

/** Deepest nesting of objects and arrays a body may have (the contract's deepest is 4). */
export const MAX_JSON_DEPTH = 64

/**
 * The nesting depth of JSON text (brackets outside strings), stopping once it passes `limit`.
 * A 50,000-deep body parses, but walking it (validation, JSON.stringify) overflows the stack.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // backslash: skip the escaped character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true
    } else if (c === 0x7d || c === 0x5d) depth--
  }
  return false
}

/** Parses a JSON object body: malformed JSON, a non-object or too deep a nesting → 400. */
export function parseJsonObject(buf: Buffer): Record<string, unknown> {
  const text = buf.toString('utf8')
  if (text.trim() === '') throw badRequest('The request body is empty; send a JSON object')
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw badRequest(`The request body nests deeper than ${MAX_JSON_DEPTH} levels`, [
      { field: '(body)', message: `At most ${MAX_JSON_DEPTH} levels of nesting` }
    ])
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    throw badRequest(`The request body is not valid JSON: ${(e as Error).message}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('The request body must be a JSON object', [
      { field: '(body)', message: 'Expected an object' }
    ])
  }
  return value as Record<string, unknown>
}

// ---------------------------------------------------------------------------------------------
// Routing
// ---------------------------------------------------------------------------------------------

export interface RouteMatch<H> {
  handler: H
  params: string[]
}

interface Node<H> {
  literal: Map<string, Node<H>>
  param?: Node<H>
  methods?: Map<string, H>
}

/** A tiny segment-trie router: `/agents/:id` style patterns, method table per path. */
export class Router<H> {
  private readonly root: Node<H> = { literal: new Map() }

  add(method: string, pattern: string, handler: H) {
    let node = this.root
    for (const seg of pattern.split('/').filter(Boolean)) {
      if (seg.startsWith(':')) {
        node.param ??= { literal: new Map() }
        node = node.param
      } else {
        let next = node.literal.get(seg)
        if (!next) {
          next = { literal: new Map() }
          node.literal.set(seg, next)
        }
        node = next
      }
    }
    node.methods ??= new Map()
    node.methods.set(method, handler)
  }

  /** The handler, or a 404/405 HttpError. */
  match(method: string, path: string): RouteMatch<H> {
    let node: Node<H> | undefined = this.root
    const params: string[] = []
    let start = 1
    while (node && start <= path.length) {
      let end = path.indexOf('/', start)
      if (end === -1) end = path.length
      const raw = path.slice(start, end)
      start = end + 1
      if (raw === '') continue
      const lit: Node<H> | undefined = node.literal.get(raw)
      if (lit) node = lit
      else if (node.param) {
        let decoded: string
        try {
          decoded = decodeURIComponent(raw)
        } catch {
          throw notFound('Route')
        }
        params.push(decoded)
        node = node.param
      } else node = undefined
    }
    if (!node?.methods) throw new HttpError(404, 'not_found', 'No such route')
    const handler = node.methods.get(method)
    if (!handler) {
      const allow = [...node.methods.keys()].join(', ')
      throw new HttpError(
        405,
        'method_not_allowed',
        `Method ${method} is not allowed here; use ${allow}`,
        [],
        {
          allow
        }
      )
    }
    return { handler, params }
  }
}
