/**
 * The operations of the Agent Management Service (service-api.md plus the extras of decisions.md).
 * Each handler receives the signed-in user (public shape), path params, query and parsed body,
 * and returns the `data` of the success envelope.
 */
import { z } from 'zod'
import {
  AgentCreate,
  AgentDocumentCreate,
  AgentToolCreate,
  AgentUpdate,
  ApiTokenCreate,
  DocumentCreate,
  DocumentUpdate,
  ListQuery,
  PromptCreate,
  PromptUpdate,
  scanPlaceholders,
  SignInRequest,
  SignUpRequest,
  TagCreate,
  TagUpdate,
  ToolCreate,
  ToolUpdate,
  type FieldIssue,
  type UserStrict
} from '../shared'
import { newApiTokenValue } from './auth'
import { conflict, forbidden, invalid, notFound, RawJson, Router, unauthorized, validate } from './http'
import { type AgentInput, type Page, type Store } from './store'

export interface OpenCtx {
  params: string[]
  query: URLSearchParams | null
  body: Record<string, unknown>
}
export interface Ctx extends OpenCtx {
  user: UserStrict
}

export interface AuthOps {
  signIn(email: string, password: string): Promise<{ token: string; user: UserStrict } | null>
  signUp(email: string, password: string, name: string): Promise<{ token: string; user: UserStrict } | null>
}

/** `auth: false` only for sign-in / sign-up; `body`: the operation takes a JSON object body. */
export type Route =
  | { auth: true; body: boolean; run(ctx: Ctx): unknown }
  | { auth: false; body: boolean; run(ctx: OpenCtx): unknown }

function page(query: URLSearchParams | null): Page {
  if (!query) return { skip: 0, take: -1 }
  const raw: Record<string, string> = {}
  for (const k of ['skip', 'take']) {
    const values = query.getAll(k)
    if (values.length > 1) throw invalid([{ field: k, message: `Give ${k} once` }])
    if (values[0] !== undefined) raw[k] = values[0]
  }
  for (const [k, v] of Object.entries(raw)) {
    if (!/^\d+$/.test(v.trim())) throw invalid([{ field: k, message: 'Expected a whole number' }])
  }
  const q = validate(ListQuery, raw)
  return { skip: q.skip ?? 0, take: q.take ?? -1 }
}

function flag(query: URLSearchParams | null, name: string): boolean {
  const v = query?.get(name)
  if (v === null || v === undefined) return false
  if (v === '' || v === 'true' || v === '1') return true
  if (v === 'false' || v === '0') return false
  throw invalid([{ field: name, message: 'Expected true or false' }])
}

const id = (ctx: Ctx) => ctx.params[0] as string

function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw notFound(what)
  return value
}

export function buildRouter(store: Store, auth: AuthOps): Router<Route> {
  const r = new Router<Route>()
  const open = (method: string, path: string, run: (ctx: OpenCtx) => unknown) =>
    r.add(method, path, { auth: false, body: true, run })
  const get = (path: string, run: (ctx: Ctx) => unknown) =>
    r.add('GET', path, { auth: true, body: false, run })
  const del = (path: string, run: (ctx: Ctx) => unknown) =>
    r.add('DELETE', path, { auth: true, body: false, run })
  const post = (path: string, run: (ctx: Ctx) => unknown) =>
    r.add('POST', path, { auth: true, body: true, run })
  const patch = (path: string, run: (ctx: Ctx) => unknown) =>
    r.add('PATCH', path, { auth: true, body: true, run })

  // auth --------------------------------------------------------------------------------------
  open('POST', '/auth/sign-in', async (ctx) => {
    const b = validate(SignInRequest, ctx.body)
    const result = await auth.signIn(b.email, b.password)
    if (!result) throw unauthorized('E-mail or password is wrong')
    return result
  })
  open('POST', '/auth/sign-up', async (ctx) => {
    const b = validate(SignUpRequest, ctx.body)
    const result = await auth.signUp(b.email, b.password, b.name)
    if (!result) throw conflict('An account with this e-mail exists already')
    return result
  })

  // documents ---------------------------------------------------------------------------------
  post('/documents', (ctx) => {
    const b = validate(DocumentCreate, ctx.body)
    return store.createDocument(ctx.user, {
      name: b.name,
      type: b.type,
      url: b.url,
      from_page: b.from_page ?? null,
      to_page: b.to_page ?? null,
      metadata: b.metadata ?? {},
      authorization: b.authorization ?? null,
      splitter: b.splitter ?? null
    })
  })
  get('/documents', (ctx) => store.listDocuments(ctx.user, page(ctx.query)))
  get('/documents/:id', (ctx) => must(store.getDocument(ctx.user, id(ctx)), 'Document'))
  patch('/documents/:id', (ctx) => {
    const b = validate(DocumentUpdate, ctx.body)
    return must(store.renameDocument(ctx.user, id(ctx), b.name), 'Document')
  })
  del('/documents/:id', (ctx) => {
    if (!store.deleteDocument(ctx.user, id(ctx))) throw notFound('Document')
    return null
  })

  // api tokens --------------------------------------------------------------------------------
  post('/api-tokens', (ctx) => {
    const b = validate(ApiTokenCreate, ctx.body)
    return store.createApiToken(ctx.user, b.description, newApiTokenValue())
  })
  get('/api-tokens', (ctx) => store.listApiTokens(ctx.user, page(ctx.query)))
  get('/api-tokens/:id', (ctx) => must(store.getApiToken(ctx.user, id(ctx)), 'API token'))
  del('/api-tokens/:id', (ctx) => {
    if (!store.deleteApiToken(ctx.user, id(ctx))) throw notFound('API token')
    return null
  })

  // agents ------------------------------------------------------------------------------------
  /** Checks that referenced prompt, document and tags are the caller's; returns tag ids in order. */
  function checkRefs(
    user: UserStrict,
    b: { promptId?: string | null; documentId?: string | null; tags?: (string | { id: string })[] }
  ): string[] {
    const issues: FieldIssue[] = []
    if (b.promptId != null && !store.getPrompt(user, b.promptId)) {
      issues.push({ field: 'promptId', message: 'No such prompt' })
    }
    if (b.documentId != null && !store.getDocument(user, b.documentId)) {
      issues.push({ field: 'documentId', message: 'No such document' })
    }
    const tagIds: string[] = []
    ;(b.tags ?? []).forEach((ref, i) => {
      const tagId = typeof ref === 'string' ? ref : ref.id
      if (!store.getTag(user, tagId)) issues.push({ field: `tags.${i}`, message: `No such tag: ${tagId}` })
      else if (!tagIds.includes(tagId)) tagIds.push(tagId)
    })
    if (issues.length) throw invalid(issues)
    return tagIds
  }

  post('/agents', (ctx) => {
    const b = validate(AgentCreate, ctx.body)
    const tagIds = checkRefs(ctx.user, b)
    const json = store.createAgentJson(ctx.user, {
      name: b.name,
      type: b.type,
      provider: b.llm.provider,
      model: b.llm.model,
      hasMemory: b.hasMemory,
      promptId: b.promptId ?? null,
      documentId: b.documentId ?? null,
      tagIds
    })
    return new RawJson(json)
  })
  get('/agents', (ctx) => new RawJson(store.listAgentsJson(ctx.user, page(ctx.query))))
  get('/agents/:id', (ctx) => new RawJson(must(store.getAgentJson(ctx.user, id(ctx)), 'Agent')))
  patch('/agents/:id', (ctx) => {
    const b = validate(AgentUpdate, ctx.body)
    const current = must(store.getAgent(ctx.user, id(ctx)), 'Agent')
    const tagIds = checkRefs(ctx.user, b)
    const next: AgentInput = {
      name: b.name ?? current.name,
      type: b.type ?? current.type,
      provider: b.llm?.provider ?? current.llm.provider,
      model: b.llm?.model ?? current.llm.model,
      hasMemory: b.hasMemory ?? current.hasMemory,
      promptId: b.promptId === undefined ? current.promptId : b.promptId,
      documentId: b.documentId === undefined ? current.documentId : b.documentId,
      tagIds
    }
    return must(store.updateAgent(ctx.user, current.id, next, b.tags !== undefined), 'Agent')
  })
  del('/agents/:id', (ctx) => {
    if (!store.deleteAgent(ctx.user, id(ctx))) throw notFound('Agent')
    return null
  })

  // tools -------------------------------------------------------------------------------------
  post('/tools', (ctx) => {
    const b = validate(ToolCreate, ctx.body)
    return store.createTool(ctx.user, {
      name: b.name,
      type: b.type,
      description: b.description ?? '',
      metadata: b.metadata ?? {}
    })
  })
  get('/tools', (ctx) => store.listTools(ctx.user, page(ctx.query)))
  get('/tools/:id', (ctx) => must(store.getTool(ctx.user, id(ctx)), 'Tool'))
  patch('/tools/:id', (ctx) => {
    const b = validate(ToolUpdate, ctx.body)
    const current = must(store.getTool(ctx.user, id(ctx)), 'Tool')
    return must(
      store.updateTool(ctx.user, {
        ...current,
        name: b.name ?? current.name,
        type: b.type ?? current.type,
        description: b.description ?? current.description,
        metadata: b.metadata ?? current.metadata
      }),
      'Tool'
    )
  })
  del('/tools/:id', (ctx) => {
    if (!store.deleteTool(ctx.user, id(ctx))) throw notFound('Tool')
    return null
  })

  // prompts -----------------------------------------------------------------------------------
  function variablesOf(template: string): string[] {
    const scan = scanPlaceholders(template)
    if (scan.errors.length) throw invalid(scan.errors.map((message) => ({ field: 'template', message })))
    return scan.variables
  }
  post('/prompts', (ctx) => {
    const b = validate(PromptCreate, ctx.body)
    const derived = variablesOf(b.template)
    return store.createPrompt(ctx.user, b.name, b.template, b.input_variables ?? derived)
  })
  get('/prompts', (ctx) => store.listPrompts(ctx.user, page(ctx.query)))
  get('/prompts/:id', (ctx) => must(store.getPrompt(ctx.user, id(ctx)), 'Prompt'))
  patch('/prompts/:id', (ctx) => {
    const b = validate(PromptUpdate, ctx.body)
    const current = must(store.getPrompt(ctx.user, id(ctx)), 'Prompt')
    const template = b.template ?? current.template
    let vars = b.input_variables ?? current.input_variables
    if (b.template !== undefined) {
      const derived = variablesOf(template)
      if (b.input_variables === undefined) vars = derived
    }
    return must(
      store.updatePrompt(ctx.user, {
        ...current,
        name: b.name ?? current.name,
        template,
        input_variables: vars
      }),
      'Prompt'
    )
  })
  del('/prompts/:id', (ctx) => {
    if (!store.deletePrompt(ctx.user, id(ctx))) throw notFound('Prompt')
    return null
  })

  // tags --------------------------------------------------------------------------------------
  post('/tags', (ctx) => {
    const b = validate(TagCreate, ctx.body)
    if (b.userId !== ctx.user.id) throw forbidden('Tags can only be created for the signed-in user')
    return store.createTag(ctx.user, b.name, b.color)
  })
  get('/tags', (ctx) => store.listTags(ctx.user, page(ctx.query)))
  get('/tags/:id', (ctx) => must(store.getTag(ctx.user, id(ctx)), 'Tag'))
  patch('/tags/:id', (ctx) => {
    const b = validate(TagUpdate, ctx.body)
    const current = must(store.getTag(ctx.user, id(ctx)), 'Tag')
    return must(
      store.updateTag(ctx.user, {
        ...current,
        name: b.name ?? current.name,
        color: b.color ?? current.color
      }),
      'Tag'
    )
  })
  del('/tags/:id', (ctx) => {
    if (!store.deleteTag(ctx.user, id(ctx))) throw notFound('Tag')
    return null
  })

  // agent documents ---------------------------------------------------------------------------
  const AgentFilter = z.string().min(1, 'Expected an agent id')
  function agentFilter(query: URLSearchParams | null): string | null {
    const v = query?.get('filter[agentId]') ?? query?.get('agentId')
    if (v === null || v === undefined) return null
    return validate(AgentFilter, v, 'filter[agentId]')
  }

  post('/agent-documents', (ctx) => {
    const b = validate(AgentDocumentCreate, ctx.body)
    must(store.getAgent(ctx.user, b.agentId), 'Agent')
    must(store.getDocument(ctx.user, b.documentId), 'Document')
    const linkId = store.createAgentDocument(ctx.user, b.agentId, b.documentId)
    if (linkId === undefined) throw conflict('This document is already linked to this agent')
    return must(store.getAgentDocument(ctx.user, linkId, true), 'Agent document')
  })
  get('/agent-documents', (ctx) =>
    store.listAgentDocuments(ctx.user, agentFilter(ctx.query), flag(ctx.query, 'expand'), page(ctx.query))
  )
  get('/agent-documents/:id', (ctx) =>
    must(store.getAgentDocument(ctx.user, id(ctx), true), 'Agent document')
  )
  del('/agent-documents/:id', (ctx) => {
    if (!store.deleteAgentDocument(ctx.user, id(ctx))) throw notFound('Agent document')
    return null
  })

  // agent tools -------------------------------------------------------------------------------
  post('/agent-tools', (ctx) => {
    const b = validate(AgentToolCreate, ctx.body)
    must(store.getAgent(ctx.user, b.agentId), 'Agent')
    must(store.getTool(ctx.user, b.toolId), 'Tool')
    const linkId = store.createAgentTool(ctx.user, b.agentId, b.toolId)
    if (linkId === undefined) throw conflict('This tool is already linked to this agent')
    return must(store.getAgentTool(ctx.user, linkId, true), 'Agent tool')
  })
  get('/agent-tools', (ctx) =>
    store.listAgentTools(ctx.user, agentFilter(ctx.query), flag(ctx.query, 'expand'), page(ctx.query))
  )
  get('/agent-tools/:id', (ctx) => must(store.getAgentTool(ctx.user, id(ctx), true), 'Agent tool'))
  del('/agent-tools/:id', (ctx) => {
    if (!store.deleteAgentTool(ctx.user, id(ctx))) throw notFound('Agent tool')
    return null
  })

  return r
}
