/**
 * Links between agents and documents / tools: endpoints, write operations and IPC handlers. Their
 * lists are kept whole and per agent (offline/scopes.ts). Agent-tool links may lack an id on a
 * minimal server: they are keyed by agent and tool.
 */
import type { z } from 'zod'
import { AppError } from '../../shared/errors'
import { AgentDocument, AgentTool } from '../../shared/links'
import { agentToolKey } from '../../shared/ipc'
import { acceptedWithoutAnswer, fillMissing, isEmptyObject, protocol, type Endpoints } from '../api/endpoints'
import { listScope } from '../offline/scopes'
import type { Item, Resource } from '../offline/types'
import {
  api,
  cachedItem,
  cachedName,
  createOp,
  deleteOp,
  getRoute,
  q,
  wholeList,
  type Lease,
  type ReadOptions,
  type ResourceContext,
  type Routes,
  type Writes
} from './kit'

/** A server that ignores the filter still must not show another agent's links. */
function linkFilter<T extends { agentId?: string | undefined }>(
  items: T[],
  agentId: string | undefined
): T[] {
  return agentId === undefined ? items : items.filter((l) => l.agentId === undefined || l.agentId === agentId)
}

function linkQuery(f?: { agentId?: string }): Record<string, string> {
  const query: Record<string, string> = { expand: 'true' }
  if (f?.agentId !== undefined) query['filter[agentId]'] = f.agentId
  return query
}

const AgentToolObject = AgentTool as unknown as z.ZodType<AgentTool & Record<string, unknown>>

export function agentDocumentsEndpoints(e: Endpoints) {
  const what = 'agent-document link'
  return {
    list: async (f?: { agentId?: string }) =>
      linkFilter(
        await e.list('agentDocuments.list', '/agent-documents', AgentDocument, what, linkQuery(f)),
        f?.agentId
      ),
    get: (id: string) => e.get('agentDocuments.get', `/agent-documents/${e.enc(id)}`, AgentDocument, what),
    create: (b: { agentId: string; documentId: string }) => {
      const body = { agentId: b.agentId, documentId: b.documentId }
      return e.write('agentDocuments.create', 'POST', '/agent-documents', body, AgentDocument, what, body)
    },
    delete: (id: string) => e.del('agentDocuments.delete', `/agent-documents/${e.enc(id)}`, what)
  }
}

export function agentToolsEndpoints(e: Endpoints) {
  const what = 'agent-tool link'
  /** `{}` or null still means not found; a link without an id is fine. */
  const parseLink = (data: unknown, known: Record<string, unknown>): AgentTool => {
    if (data === null || data === undefined || isEmptyObject(data)) {
      throw new AppError({ kind: 'not_found', message: `The ${what} was not found`, code: 'not_found' })
    }
    const r = AgentToolObject.safeParse(data)
    if (!r.success) throw protocol(`The server's answer for the ${what} could not be read`)
    return fillMissing(r.data, known)
  }
  return {
    list: async (f?: { agentId?: string }) =>
      linkFilter(await e.list('agentTools.list', '/agent-tools', AgentTool, what, linkQuery(f)), f?.agentId),
    get: async (id: string) => {
      const path = `/agent-tools/${e.enc(id)}`
      const data = await e.request({
        op: 'agentTools.get',
        method: 'GET',
        path,
        auth: true,
        scope: 'item',
        what
      })
      return parseLink(data, {})
    },
    create: async (b: { agentId: string; toolId: string }) => {
      const body = { agentId: b.agentId, toolId: b.toolId }
      const data = await e.request({
        op: 'agentTools.create',
        method: 'POST',
        path: '/agent-tools',
        body,
        auth: true,
        scope: 'collection',
        what
      })
      if (data === null || data === undefined || isEmptyObject(data)) throw acceptedWithoutAnswer(what)
      return parseLink(data, body)
    },
    delete: (id: string) => e.del('agentTools.delete', `/agent-tools/${e.enc(id)}`, what)
  }
}

const docLinks = (s: Lease) => agentDocumentsEndpoints(api(s))
const toolLinks = (s: Lease) => agentToolsEndpoints(api(s))

function keyedLink(l: AgentTool): AgentTool & Item {
  return { ...l, id: l.id ?? agentToolKey(l) }
}

/** "Unlink document “d” from agent “a”", from what the cache knows of the link. */
function unlinkLabel(resource: Resource, id: string, other: 'documentId' | 'toolId', words: string[]) {
  return (s: Lease) => {
    const [noun, verb, prep, fallback] = words as [string, string, string, string]
    const link = cachedItem(s, resource, id)
    const otherId = link?.[other]
    const thing = typeof otherId === 'string' ? cachedName(s, `${noun}s` as Resource, otherId) : null
    const agent = typeof link?.agentId === 'string' ? cachedName(s, 'agents', link.agentId) : null
    return thing && agent ? `${verb} ${noun} ${q(thing)} ${prep} agent ${q(agent)}` : fallback
  }
}

export const linkWrites: Writes<
  'agentDocuments.create' | 'agentDocuments.delete' | 'agentTools.create' | 'agentTools.delete'
> = {
  'agentDocuments.create': (b) =>
    createOp('agentDocuments', {
      label: (s) =>
        `Link document ${q(cachedName(s, 'documents', b.documentId))} to agent ${q(cachedName(s, 'agents', b.agentId))}`,
      known: () => ({ ...b }),
      call: (s) => docLinks(s).create(b),
      refs: [b.agentId, b.documentId]
    }),
  'agentDocuments.delete': ({ id }) =>
    deleteOp(
      'agentDocuments',
      id,
      unlinkLabel('agentDocuments', id, 'documentId', [
        'document',
        'Unlink',
        'from',
        'Unlink a document from an agent'
      ]),
      (s) => docLinks(s).delete(id)
    ),
  'agentTools.create': (b) =>
    createOp('agentTools', {
      label: (s) =>
        `Add tool ${q(cachedName(s, 'tools', b.toolId))} to agent ${q(cachedName(s, 'agents', b.agentId))}`,
      known: () => ({ ...b }),
      call: async (s) => keyedLink(await toolLinks(s).create(b)),
      refs: [b.agentId, b.toolId]
    }),
  'agentTools.delete': ({ id }) =>
    deleteOp(
      'agentTools',
      id,
      unlinkLabel('agentTools', id, 'toolId', ['tool', 'Remove', 'from', 'Remove a tool from an agent']),
      (s) => toolLinks(s).delete(id)
    )
}

/** All links, or one agent's (its own cached list). */
function linkList<T extends Item & { agentId?: string | undefined }>(
  resource: Resource,
  fetch: (s: Lease, f: { agentId?: string }) => Promise<T[]>
) {
  return async (
    i: { agentId?: string | undefined; cacheOnly?: boolean | undefined } | undefined,
    ctx: ResourceContext
  ) => {
    const s = await ctx.lease()
    const agentId = i?.agentId
    const opts: ReadOptions<T> = { cacheOnly: i?.cacheOnly }
    if (agentId) opts.filter = (l) => l.agentId === agentId
    const scope = listScope({ agentId })
    return ctx.cached.readList<T>(
      s,
      resource,
      scope,
      (page) => wholeList(fetch(s, agentId ? { agentId } : {}), page),
      opts
    )
  }
}

export const linkReads: Routes<'agentDocuments.list' | 'agentDocuments.get' | 'agentTools.list'> = {
  'agentDocuments.list': linkList('agentDocuments', (s, f) => docLinks(s).list(f)),
  'agentDocuments.get': getRoute('agentDocuments', (s, id) => docLinks(s).get(id)),
  'agentTools.list': linkList('agentTools', async (s, f) => (await toolLinks(s).list(f)).map(keyedLink))
}
