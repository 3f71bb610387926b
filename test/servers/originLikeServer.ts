/**
 * A deliberately odd server that behaves like the service service-api.md came from (FastAPI +
 * Prisma), for tests of the client, the main core, e2e and `test:remote`.
 *
 * - Implements ONLY the operations table of service-api.md, in memory.
 * - Answers with the document's shapes INCLUDING its omissions: document create lacks `name`;
 *   agent create has `tags` but no `document`/`documentId`; agent get/list lack `tags`; the tool
 *   list has only id, name, type; an agent-tool link has no id.
 * - Reads the credential from ONE header spelling (default `Authorization`, like the origin).
 *   Missing credential: 403 {"detail":"Not authenticated"}; unknown: 403
 *   {"detail":"Invalid token or expired token."}. API tokens are accepted as bearer credentials.
 * - Unknown routes: 404 {"detail":"Not Found"}; wrong method: 405 {"detail":"Method Not Allowed"};
 *   validation: 422 {"detail":[{loc,msg,type}]}; not found: 200 {success:true,data:null}.
 * - Test controls: `setMode` simulates a proxy's HTML 502 page, an empty 500, a response that
 *   never comes, and a server that drops every connection. `requests` records every request.
 */
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { randomBytes } from 'node:crypto'
import { formatTimestamp } from '../../src/shared/common'

export type OriginLikeMode = 'normal' | 'html502' | 'empty500' | 'hang' | 'down'

export interface OriginLikeOptions {
  /** The ONLY spelling the server reads. Default 'Authorization', like the origin. */
  header?: 'Autorization' | 'Authorization'
  port?: number
  /** Default: one user demo@example.com / demo-password. */
  users?: { email: string; password: string; name: string }[]
  /**
   * Tag colours. 'lenient' (default): `#RGB` or `#RRGGBB`, answered `#RRGGBB` upper case.
   * 'strictLower': only the document's seven-character `#RRGGBB` (422 for `#abc`), answered in
   * lower case — a stricter server the client must cope with.
   */
  colors?: 'lenient' | 'strictLower'
}

export interface OriginLikeRequest {
  method: string
  /** Path without the query, e.g. `/api/v1/agents`. */
  path: string
  query: string
  headers: http.IncomingHttpHeaders
}

export interface OriginLikeServer {
  /** Base URL without /api/v1, e.g. `http://127.0.0.1:40123`. */
  url: string
  close(): Promise<void>
  setMode(mode: OriginLikeMode): void
  /** Ids of the 2 seeded prompts (the document cannot create prompts). */
  promptIds: string[]
  /** Ids of the 3 seeded tools (the document cannot create tools). */
  toolIds: string[]
  /** Every request received, in order (including those answered with an error). */
  requests: OriginLikeRequest[]
}

export const ORIGIN_DEFAULT_USER = { email: 'demo@example.com', password: 'demo-password', name: 'Demo User' }

type Row = Record<string, unknown>

function cuid(): string {
  return 'c' + randomBytes(12).toString('hex').slice(0, 24)
}

class HttpReply {
  constructor(
    readonly status: number,
    readonly body: unknown
  ) {}
}
const detail = (status: number, text: string) => new HttpReply(status, { detail: text })
const ok = (data: unknown) => new HttpReply(200, { success: true, data })
const missing = (field: string) => ({
  loc: ['body', field],
  msg: 'field required',
  type: 'value_error.missing'
})
const wrongType = (field: string, type: string) => ({
  loc: ['body', field],
  msg: `value is not a valid ${type}`,
  type: `type_error.${type}`
})

interface Route {
  pattern: RegExp
  /** Needs no credential (sign-in). */
  public?: boolean
  methods: Record<string, (ctx: Ctx) => HttpReply>
}
interface Ctx {
  params: string[]
  body: unknown
  userId: string
}

export async function startOriginLikeServer(opts: OriginLikeOptions = {}): Promise<OriginLikeServer> {
  const headerName = (opts.header ?? 'Authorization').toLowerCase()
  let mode: OriginLikeMode = 'normal'
  const requests: OriginLikeRequest[] = []
  const now = () => formatTimestamp(new Date())

  // ----- storage -----
  const users = new Map<string, Row & { password: string }>()
  for (const u of opts.users ?? [ORIGIN_DEFAULT_USER]) {
    const id = cuid()
    const t = now()
    users.set(id, {
      id,
      email: u.email,
      name: u.name,
      password: u.password,
      createdAt: t,
      updatedAt: t,
      deletedAt: null,
      profile: null,
      Agent: null,
      ApiToken: null,
      Document: null
    })
  }
  const sessions = new Map<string, string>() // token -> userId
  const documents = new Map<string, Row>()
  const apiTokens = new Map<string, Row>()
  const agents = new Map<string, Row>()
  const tools = new Map<string, Row>()
  const prompts = new Map<string, Row>()
  const tags = new Map<string, Row>()
  const agentDocuments = new Map<string, Row>()
  const agentTools: Row[] = []

  const firstUserId = [...users.keys()][0] ?? ''
  const seedTools: [string, string, string][] = [
    ['Web search', 'SEARCH', 'Searches the web'],
    ['Calculator', 'MATHENGINE_ALPHA', 'Computes'],
    ['Zapier', 'AUTOMATION_NLA', 'Runs automations']
  ]
  for (const [name, type, description] of seedTools) {
    const id = cuid()
    const t = now()
    tools.set(id, {
      id,
      userId: firstUserId,
      name,
      type,
      description,
      metadata: {},
      createdAt: t,
      updatedAt: t
    })
  }
  const seedPrompts: [string, string, string[]][] = [
    ['Support', 'You answer questions about {product}.', ['product']],
    ['Summary', 'Summarise {text} in {count} words.', ['text', 'count']]
  ]
  for (const [name, template, input_variables] of seedPrompts) {
    const id = cuid()
    prompts.set(id, { id, userId: firstUserId, name, template, input_variables })
  }

  const publicUser = (id: string): Row => {
    const u = users.get(id)
    if (!u) return {}
    const { password: _password, ...rest } = u
    void _password
    return rest
  }

  const str = (v: unknown) => typeof v === 'string'
  const obj = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v)

  /** Pydantic-ish required-field check: collect every problem, 422 if any. */
  function validate(body: unknown, spec: Record<string, 'string' | 'boolean' | 'object' | 'array' | 'int'>) {
    if (!obj(body))
      return new HttpReply(422, {
        detail: [{ loc: ['body'], msg: 'field required', type: 'value_error.missing' }]
      })
    const issues: unknown[] = []
    for (const [field, type] of Object.entries(spec)) {
      const v = body[field]
      if (v === undefined || v === null) issues.push(missing(field))
      else if (type === 'string' && !str(v)) issues.push(wrongType(field, 'str'))
      else if (type === 'boolean' && typeof v !== 'boolean') issues.push(wrongType(field, 'bool'))
      else if (type === 'object' && !obj(v)) issues.push(wrongType(field, 'dict'))
      else if (type === 'array' && !Array.isArray(v)) issues.push(wrongType(field, 'list'))
    }
    return issues.length ? new HttpReply(422, { detail: issues }) : null
  }

  const docView = (d: Row, withName: boolean): Row => {
    const out: Row = {
      id: d.id,
      userId: d.userId,
      user: {},
      type: d.type,
      url: d.url,
      createdAt: d.createdAt,
      updatedAt: d.updatedAt,
      index: null,
      Agent: null
    }
    if (withName) out.name = d.name
    return out
  }
  const agentView = (a: Row, kind: 'create' | 'read'): Row => {
    const out: Row = {
      id: a.id,
      userId: a.userId,
      user: {},
      name: a.name,
      type: a.type,
      llm: a.llm,
      hasMemory: a.hasMemory,
      AgentMemory: null
    }
    if (kind === 'create') out.tags = a.tags
    else {
      out.document = {}
      out.documentId = a.documentId ?? ''
    }
    return out
  }
  const toolView = (t: Row): Row => ({
    id: t.id,
    userId: t.userId,
    name: t.name,
    type: t.type,
    user: {},
    description: t.description
  })
  const promptView = (p: Row): Row => ({
    id: p.id,
    name: p.name,
    template: p.template,
    input_variables: p.input_variables
  })
  const tokenView = (t: Row): Row => ({
    id: t.id,
    userId: t.userId,
    user: {},
    description: t.description,
    token: t.token
  })

  const TOOL_TYPES = ['SEARCH', 'MATHENGINE_ALPHA', 'MODELHOST', 'AUTOMATION_NLA', 'AGENT', 'OPENAPI']
  const DOC_TYPES = ['TXT', 'PDF', 'VIDEO', 'CSV', 'URL']
  const enumIssue = (field: string, allowed: string[]) =>
    new HttpReply(422, {
      detail: [
        {
          loc: ['body', field],
          msg: `value is not a valid enumeration member; permitted: ${allowed.join(', ')}`,
          type: 'type_error.enum'
        }
      ]
    })

  const routes: Route[] = [
    {
      pattern: /^\/auth\/sign-in$/,
      public: true,
      methods: { POST: ({ body }) => signIn(body) }
    },
    {
      pattern: /^\/documents$/,
      methods: {
        POST: ({ body, userId }) => {
          const bad = validate(body, { name: 'string', type: 'string', url: 'string' })
          if (bad || !obj(body)) return bad as HttpReply
          if (!DOC_TYPES.includes(String(body.type))) return enumIssue('type', DOC_TYPES)
          const id = cuid()
          const t = now()
          const d: Row = {
            id,
            userId,
            name: body.name,
            type: body.type,
            url: body.url,
            createdAt: t,
            updatedAt: t
          }
          documents.set(id, d)
          return ok(docView(d, false))
        }
      }
    },
    {
      pattern: /^\/documents\/([^/]+)$/,
      methods: {
        GET: ({ params }) => {
          const d = documents.get(params[0] ?? '')
          return ok(d ? docView(d, true) : null)
        },
        PATCH: ({ params, body }) => {
          const bad = validate(body, { name: 'string' })
          if (bad || !obj(body)) return bad as HttpReply
          const d = documents.get(params[0] ?? '')
          if (!d) return ok(null)
          d.name = body.name
          d.updatedAt = now()
          return ok(docView(d, true))
        },
        DELETE: ({ params }) => {
          documents.delete(params[0] ?? '')
          return ok(null)
        }
      }
    },
    {
      pattern: /^\/api-tokens$/,
      methods: {
        POST: ({ body, userId }) => {
          const bad = validate(body, { description: 'string' })
          if (bad || !obj(body)) return bad as HttpReply
          const id = cuid()
          const t: Row = { id, userId, description: body.description, token: randomBytes(24).toString('hex') }
          apiTokens.set(id, t)
          return ok(tokenView(t))
        },
        GET: ({ userId }) =>
          ok(
            [...apiTokens.values()]
              .filter((t) => t.userId === userId)
              .reverse()
              .map(tokenView)
          )
      }
    },
    {
      pattern: /^\/api-tokens\/([^/]+)$/,
      methods: {
        GET: ({ params }) => {
          const t = apiTokens.get(params[0] ?? '')
          return ok(t ? tokenView(t) : null)
        }
      }
    },
    {
      pattern: /^\/agents$/,
      methods: {
        POST: ({ body, userId }) => {
          const bad = validate(body, { name: 'string', type: 'string', llm: 'object', hasMemory: 'boolean' })
          if (bad || !obj(body)) return bad as HttpReply
          const tagList = Array.isArray(body.tags)
            ? body.tags
                .map((t) =>
                  typeof t === 'string'
                    ? tags.get(t)
                    : obj(t) && str(t.id)
                      ? tags.get(String(t.id))
                      : undefined
                )
                .filter((t): t is Row => t !== undefined)
                .map((t) => ({ id: t.id, name: t.name, color: t.color }))
            : []
          const id = cuid()
          const a: Row = {
            id,
            userId,
            name: body.name,
            type: body.type,
            llm: body.llm,
            hasMemory: body.hasMemory,
            promptId: body.promptId ?? null,
            documentId: body.documentId ?? null,
            tags: tagList
          }
          agents.set(id, a)
          return ok(agentView(a, 'create'))
        },
        GET: ({ userId }) =>
          ok(
            [...agents.values()]
              .filter((a) => a.userId === userId)
              .reverse()
              .map((a) => agentView(a, 'read'))
          )
      }
    },
    {
      pattern: /^\/agents\/([^/]+)$/,
      methods: {
        GET: ({ params }) => {
          const a = agents.get(params[0] ?? '')
          return ok(a ? agentView(a, 'read') : null)
        },
        DELETE: ({ params }) => {
          agents.delete(params[0] ?? '')
          return ok(null)
        }
      }
    },
    {
      pattern: /^\/tools$/,
      methods: {
        GET: () => ok([...tools.values()].map((t) => ({ id: t.id, name: t.name, type: t.type })))
      }
    },
    {
      pattern: /^\/tools\/([^/]+)$/,
      methods: {
        GET: ({ params }) => {
          const t = tools.get(params[0] ?? '')
          return ok(t ? toolView(t) : null)
        },
        PATCH: ({ params, body }) => {
          if (!obj(body)) return validate(body, {}) as HttpReply
          const t = tools.get(params[0] ?? '')
          if (!t) return ok(null)
          if (body.type !== undefined && !TOOL_TYPES.includes(String(body.type)))
            return enumIssue('type', TOOL_TYPES)
          for (const k of ['name', 'description', 'type', 'metadata'])
            if (body[k] !== undefined) t[k] = body[k]
          t.updatedAt = now()
          return ok(toolView(t))
        }
      }
    },
    {
      pattern: /^\/prompts\/([^/]+)$/,
      methods: {
        GET: ({ params }) => {
          const p = prompts.get(params[0] ?? '')
          return ok(p ? promptView(p) : null)
        },
        PATCH: ({ params, body }) => {
          if (!obj(body)) return validate(body, {}) as HttpReply
          const p = prompts.get(params[0] ?? '')
          if (!p) return ok(null)
          if (body.input_variables !== undefined && !Array.isArray(body.input_variables)) {
            return new HttpReply(422, { detail: [wrongType('input_variables', 'list')] })
          }
          for (const k of ['name', 'template', 'input_variables']) if (body[k] !== undefined) p[k] = body[k]
          return ok(promptView(p))
        }
      }
    },
    {
      pattern: /^\/tags$/,
      methods: {
        POST: ({ body }) => {
          const bad = validate(body, { name: 'string', color: 'string', userId: 'string' })
          if (bad || !obj(body)) return bad as HttpReply
          const strict = opts.colors === 'strictLower'
          const re = strict ? /^#([0-9a-fA-F]{6})$/ : /^#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})$/
          const m = re.exec(strict ? String(body.color) : String(body.color).trim())
          if (!m) {
            return new HttpReply(422, {
              detail: [
                {
                  loc: ['body', 'color'],
                  msg: 'value is not a valid color: string not recognised as a valid color',
                  type: 'value_error.color'
                }
              ]
            })
          }
          const hex = (m[1] ?? '').length === 3 ? [...(m[1] ?? '')].map((c) => c + c).join('') : (m[1] ?? '')
          const id = cuid()
          const color = strict ? `#${hex.toLowerCase()}` : `#${hex.toUpperCase()}`
          const t: Row = { id, name: body.name, color, userId: body.userId }
          tags.set(id, t)
          return ok({ id, name: t.name, color: t.color })
        }
      }
    },
    {
      pattern: /^\/agent-documents$/,
      methods: {
        POST: ({ body, userId }) => {
          const bad = validate(body, { agentId: 'string', documentId: 'string' })
          if (bad || !obj(body)) return bad as HttpReply
          const id = cuid()
          const l: Row = { id, userId, agentId: body.agentId, documentId: body.documentId }
          agentDocuments.set(id, l)
          return ok({ id, agent: {}, agentId: l.agentId, document: {}, documentId: l.documentId, user: {} })
        }
      }
    },
    {
      pattern: /^\/agent-documents\/([^/]+)$/,
      methods: {
        GET: ({ params }) => {
          const l = agentDocuments.get(params[0] ?? '')
          return ok(
            l ? { id: l.id, agent: {}, agentId: l.agentId, document: {}, documentId: l.documentId } : null
          )
        }
      }
    },
    {
      pattern: /^\/agent-tools$/,
      methods: {
        POST: ({ body, userId }) => {
          const bad = validate(body, { agentId: 'string', toolId: 'string' })
          if (bad || !obj(body)) return bad as HttpReply
          agentTools.push({ userId, agentId: body.agentId, toolId: body.toolId })
          return ok({ user: {}, agent: {}, agentId: body.agentId, tool: {}, toolId: body.toolId })
        }
      }
    }
  ]

  function signIn(body: unknown): HttpReply {
    const bad = validate(body, { email: 'string', password: 'string' })
    if (bad || !obj(body)) return bad as HttpReply
    const user = [...users.values()].find((u) => u.email === body.email)
    if (!user || user.password !== body.password) return detail(401, 'Invalid credentials')
    const token = `eyJ${randomBytes(24).toString('base64url')}`
    sessions.set(token, String(user.id))
    return ok({ token, user: publicUser(String(user.id)) })
  }

  function authenticate(req: http.IncomingMessage): string | HttpReply {
    const value = req.headers[headerName]
    const raw = Array.isArray(value) ? value[0] : value
    if (!raw) return detail(403, 'Not authenticated')
    const m = /^Bearer\s+(\S+)$/i.exec(raw.trim())
    if (!m) return detail(403, 'Invalid authentication scheme.')
    const token = m[1] ?? ''
    const sessionUser = sessions.get(token)
    if (sessionUser) return sessionUser
    for (const t of apiTokens.values()) if (t.token === token) return String(t.userId)
    return detail(403, 'Invalid token or expired token.')
  }

  function route(method: string, path: string, req: http.IncomingMessage, body: unknown): HttpReply {
    if (!path.startsWith('/api/v1/')) return detail(404, 'Not Found')
    const sub = path.slice('/api/v1'.length)
    for (const r of routes) {
      const m = r.pattern.exec(sub)
      if (!m) continue
      const handler = r.methods[method]
      if (!handler) return detail(405, 'Method Not Allowed')
      const params = m.slice(1).map((p) => decodeURIComponent(p))
      if (r.public) return handler({ params, body, userId: '' })
      const who = authenticate(req)
      if (who instanceof HttpReply) return who
      return handler({ params, body, userId: who })
    }
    return detail(404, 'Not Found')
  }

  const sockets = new Set<Socket>()
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    requests.push({ method: req.method ?? '', path: url.pathname, query: url.search, headers: req.headers })
    if (mode === 'down') {
      req.socket.destroy()
      return
    }
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      if (mode === 'hang') return // never answer; close() destroys the socket
      if (mode === 'html502') {
        const page =
          '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n'
        res.writeHead(502, 'Bad Gateway', {
          'Content-Type': 'text/html',
          'Content-Length': Buffer.byteLength(page)
        })
        res.end(page)
        return
      }
      if (mode === 'empty500') {
        res.writeHead(500, 'Internal Server Error', { 'Content-Length': 0 })
        res.end()
        return
      }
      let body: unknown = undefined
      const text = Buffer.concat(chunks).toString('utf8')
      let reply: HttpReply
      if (text.trim() !== '') {
        try {
          body = JSON.parse(text)
        } catch (e) {
          reply = new HttpReply(422, {
            detail: [
              {
                loc: ['body', 0],
                msg: `Expecting value: ${e instanceof Error ? e.message : 'invalid JSON'}`,
                type: 'value_error.jsondecode'
              }
            ]
          })
          send(res, reply)
          return
        }
      }
      try {
        reply = route(req.method ?? 'GET', url.pathname.replace(/\/+$/, '') || '/', req, body)
      } catch {
        reply = detail(500, 'Internal Server Error')
      }
      send(res, reply)
    })
  })
  server.on('connection', (s) => {
    if (mode === 'down') {
      s.destroy()
      return
    }
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })

  function send(res: http.ServerResponse, reply: HttpReply) {
    const text = JSON.stringify(reply.body)
    res.writeHead(reply.status, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(text)
    })
    res.end(text)
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port

  return {
    url: `http://127.0.0.1:${port}`,
    promptIds: [...prompts.keys()],
    toolIds: [...tools.keys()],
    requests,
    setMode(m) {
      mode = m
      if (m === 'down') for (const s of sockets) s.destroy()
    },
    close() {
      return new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
        server.closeAllConnections()
      })
    }
  }
}
