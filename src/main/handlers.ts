/**
 * One handler per channel of the IPC table (a missing channel is a compile error), and the write
 * operations the outbox replays through the same online path.
 */
import { z } from 'zod'
import { AppError, isConnectivityError } from '../shared/errors'
import { formatTimestamp } from '../shared/common'
import { maskToken, type ApiToken, type ApiTokenView } from '../shared/apiToken'
import type { AgentTool } from '../shared/links'
import type { PromptCreate, PromptUpdate } from '../shared/prompt'
import type { ToolCreate, ToolUpdate } from '../shared/tool'
import {
  agentToolKey,
  ipcContract,
  type AppInfo,
  type Channel,
  type ChannelParsedInput,
  type ChannelResult,
  type Read
} from '../shared/ipc'
import { normalizeBaseUrl, type ApiClient } from './api/client'
import { capabilityStoreFor, type ActiveSession, type SessionManager } from './session'
import { LOCAL_PROFILE_ID, type ProfileStore } from './profiles'
import type { ConnectivityMonitor } from './connectivity'
import { mergeDefined, type DataService, type Item, type Resource, type WriteOp } from './data'
import { externalOpenDecision } from './security'
import type { Desktop } from './desktop/desktop'
import { desktopHandlers } from './desktop/handlers'

export interface HandlerContext {
  session: SessionManager
  profiles: ProfileStore
  data: DataService
  connectivity: ConnectivityMonitor
  info: AppInfo
  openExternal: (url: string) => Promise<void>
  /** Settings and updates (src/main/desktop). */
  desktop: Desktop
  /** The signed-in session for this call (released by the core when the handler returns). */
  lease(): Promise<ActiveSession>
}

export type Handler<C extends Channel> = (
  input: ChannelParsedInput<C>,
  ctx: HandlerContext
) => Promise<ChannelResult<C>>
export type Handlers = { [C in Channel]: Handler<C> }

const now = () => formatTimestamp(new Date())
const q = (s: string) => `“${s}”`

function client(s: ActiveSession): ApiClient {
  if (!s.client) throw new AppError({ kind: 'internal', message: 'The session is not ready' })
  return s.client
}

/** Agent-tool links may lack an id on a minimal server: they are keyed by agent and tool. */
function keyedLink(l: AgentTool): AgentTool & Item {
  return { ...l, id: l.id ?? agentToolKey(l) }
}

type TokenViewItem = Item & { tokenPreview: string | null }

function tokenView(t: ApiToken): TokenViewItem {
  const { token, ...rest } = t
  return { ...rest, id: t.id, tokenPreview: maskToken(token) }
}

// ------------------------------------------------------------------------------------------------
// Write operations (online path + optimistic outbox path), built from a channel and its input.
// ------------------------------------------------------------------------------------------------

type WriteChannel =
  | 'agents.create'
  | 'agents.update'
  | 'agents.delete'
  | 'documents.create'
  | 'documents.rename'
  | 'documents.delete'
  | 'tools.create'
  | 'tools.update'
  | 'tools.delete'
  | 'prompts.create'
  | 'prompts.update'
  | 'prompts.delete'
  | 'tags.create'
  | 'tags.update'
  | 'tags.delete'
  | 'apiTokens.delete'
  | 'agentDocuments.create'
  | 'agentDocuments.delete'
  | 'agentTools.create'
  | 'agentTools.delete'

const WRITE_CHANNELS = new Set<string>([
  'agents.create',
  'agents.update',
  'agents.delete',
  'documents.create',
  'documents.rename',
  'documents.delete',
  'tools.create',
  'tools.update',
  'tools.delete',
  'prompts.create',
  'prompts.update',
  'prompts.delete',
  'tags.create',
  'tags.update',
  'tags.delete',
  'apiTokens.delete',
  'agentDocuments.create',
  'agentDocuments.delete',
  'agentTools.create',
  'agentTools.delete'
] satisfies WriteChannel[])

function parseArgs<C extends WriteChannel>(channel: C, args: unknown): ChannelParsedInput<C> {
  const schema: z.ZodType = ipcContract[channel].input
  const r = schema.safeParse(args)
  if (!r.success) {
    throw new AppError({ kind: 'validation', message: 'This queued change can no longer be sent as it is' })
  }
  return r.data as ChannelParsedInput<C>
}

type TagRef = string | { id: string; [k: string]: unknown }

/** How a change's label names one item of a resource. */
const NOUNS = {
  agents: 'agent',
  documents: 'document',
  tools: 'tool',
  prompts: 'prompt',
  tags: 'tag',
  apiTokens: 'API token'
} as const

/** The resource of a write channel: `tools.update` → `tools`. */
function resourceOf<R extends keyof typeof NOUNS>(channel: `${R}.${string}`): R {
  return channel.slice(0, channel.indexOf('.')) as R
}

export function createWriteOps(data: DataService, session: SessionManager) {
  const name = (s: ActiveSession, r: Resource, id: string, field = 'name') => data.cachedName(s, r, id, field)

  /** Tag references as the server wants them (`{id, name, color}`), from what the cache knows. */
  const tagObjects = (s: ActiveSession, refs: readonly TagRef[]): Item[] =>
    refs.map((r) => {
      if (typeof r !== 'string') return { ...r }
      const t = data.cachedItem(s, 'tags', r)
      const out: Item = { id: r }
      if (t && typeof t.name === 'string') out.name = t.name
      if (t && typeof t.color === 'string') out.color = t.color
      return out
    })

  function create(
    resource: Resource,
    label: (s: ActiveSession) => string,
    known: (s: ActiveSession) => Record<string, unknown>,
    call: (s: ActiveSession) => Promise<Item>,
    refs: string[] = []
  ): WriteOp {
    return {
      resource,
      kind: 'create',
      label,
      refs,
      async online(s, tempId) {
        const res = await call(s)
        const item = mergeDefined(known(s), res) as Item
        const opts = tempId ? { prepend: true, replaceId: tempId } : { prepend: true }
        const merged = data.putItem(s, resource, item, now(), opts)
        if (tempId) s.cache.removeItem(resource, tempId)
        return { data: merged, realId: merged.id }
      },
      optimistic(s, tempId) {
        const at = now()
        const item: Item = {
          ...known(s),
          id: tempId ?? '',
          userId: s.user.id || undefined,
          createdAt: at,
          updatedAt: at
        }
        return data.putItem(s, resource, item, null, { prepend: true })
      }
    }
  }

  function update(
    resource: Resource,
    id: string,
    label: (s: ActiveSession) => string,
    known: (s: ActiveSession) => Record<string, unknown>,
    call: (s: ActiveSession) => Promise<Item>,
    refs: string[] = []
  ): WriteOp {
    return {
      resource,
      kind: 'update',
      label,
      refs: [id, ...refs],
      async online(s) {
        const res = await call(s)
        const merged = data.putItem(s, resource, mergeDefined(known(s), res) as Item, now())
        return { data: merged }
      },
      optimistic(s) {
        const item: Item = { ...known(s), id, updatedAt: now() }
        return data.putItem(s, resource, item, null)
      }
    }
  }

  function remove(
    resource: Resource,
    id: string,
    label: (s: ActiveSession) => string,
    call: (s: ActiveSession) => Promise<unknown>
  ): WriteOp {
    return {
      resource,
      kind: 'delete',
      label,
      refs: [id],
      async online(s) {
        try {
          await call(s)
        } catch (e) {
          // Already gone is what the user wanted.
          if (!(AppError.is(e) && e.kind === 'not_found')) throw e
        }
        data.removeItem(s, resource, id)
        return { data: null }
      },
      optimistic(s) {
        data.removeItem(s, resource, id)
        return null
      }
    }
  }

  function build(channel: string, args: unknown): WriteOp {
    if (!WRITE_CHANNELS.has(channel)) {
      throw new AppError({ kind: 'internal', message: `"${channel}" is not a change that can be queued` })
    }
    const c = channel as WriteChannel
    switch (c) {
      case 'agents.create': {
        const b = parseArgs(c, args)
        const known = (s: ActiveSession) => {
          const k: Record<string, unknown> = { ...b }
          if (b.tags) k.tags = tagObjects(s, b.tags)
          return k
        }
        const refs = [
          b.promptId,
          b.documentId,
          ...(b.tags ?? []).map((t) => (typeof t === 'string' ? t : t.id))
        ]
        return create(
          'agents',
          () => `Create agent ${q(b.name)}`,
          known,
          (s) => {
            const body = b.tags ? { ...b, tags: tagObjects(s, b.tags) } : b
            return client(s).agents.create(body)
          },
          refs.filter((x): x is string => typeof x === 'string')
        )
      }
      case 'agents.update': {
        const { id, patch } = parseArgs(c, args)
        const known = (s: ActiveSession) => {
          const k: Record<string, unknown> = { ...patch }
          if (patch.tags) k.tags = tagObjects(s, patch.tags)
          return k
        }
        return update(
          'agents',
          id,
          (s) => `Change agent ${q(name(s, 'agents', id))}`,
          known,
          (s) => {
            const body = patch.tags ? { ...patch, tags: tagObjects(s, patch.tags) } : patch
            return client(s).agents.update(id, body)
          }
        )
      }
      case 'documents.create': {
        const b = parseArgs(c, args)
        return create(
          'documents',
          () => `Add document ${q(b.name)}`,
          () => ({ ...b }),
          (s) => client(s).documents.create(b)
        )
      }
      case 'documents.rename': {
        const { id, patch } = parseArgs(c, args)
        return update(
          'documents',
          id,
          (s) => {
            const old = name(s, 'documents', id)
            return old === patch.name
              ? `Rename document ${q(old)}`
              : `Rename document ${q(old)} to ${q(patch.name)}`
          },
          () => ({ name: patch.name }),
          (s) => client(s).documents.update(id, patch)
        )
      }
      case 'tags.create': {
        const b = parseArgs(c, args)
        return create(
          'tags',
          () => `Create tag ${q(b.name)}`,
          (s) => ({ ...b, userId: s.user.id || undefined }),
          async (s) => {
            const userId = await session.requireUserId(s)
            return client(s).tags.create({ name: b.name, color: b.color, userId })
          }
        )
      }
      case 'tags.update': {
        const { id, patch } = parseArgs(c, args)
        return update(
          'tags',
          id,
          (s) => `Change tag ${q(name(s, 'tags', id))}`,
          () => ({ ...patch }),
          (s) => client(s).tags.update(id, patch)
        )
      }
      // The plain ones: the same operation for every resource, named with the resource's noun.
      case 'agents.delete':
      case 'documents.delete':
      case 'tools.delete':
      case 'prompts.delete':
      case 'tags.delete':
      case 'apiTokens.delete': {
        const { id } = parseArgs(c, args)
        const r = resourceOf(c)
        const field = r === 'apiTokens' ? 'description' : 'name'
        return remove(
          r,
          id,
          (s) => `Delete ${NOUNS[r]} ${q(name(s, r, id, field))}`,
          (s) => client(s)[r].delete(id)
        )
      }
      case 'tools.create':
      case 'prompts.create': {
        const b = parseArgs(c, args)
        const r = resourceOf(c)
        return create(
          r,
          () => `Create ${NOUNS[r]} ${q(b.name)}`,
          () => ({ ...b }),
          (s) =>
            r === 'tools'
              ? client(s).tools.create(b as ToolCreate)
              : client(s).prompts.create(b as PromptCreate)
        )
      }
      case 'tools.update':
      case 'prompts.update': {
        const { id, patch } = parseArgs(c, args)
        const r = resourceOf(c)
        return update(
          r,
          id,
          (s) => `Change ${NOUNS[r]} ${q(name(s, r, id))}`,
          () => ({ ...patch }),
          (s) =>
            r === 'tools'
              ? client(s).tools.update(id, patch as ToolUpdate)
              : client(s).prompts.update(id, patch as PromptUpdate)
        )
      }
      case 'agentDocuments.create': {
        const b = parseArgs(c, args)
        return create(
          'agentDocuments',
          (s) =>
            `Link document ${q(name(s, 'documents', b.documentId))} to agent ${q(name(s, 'agents', b.agentId))}`,
          () => ({ ...b }),
          (s) => client(s).agentDocuments.create(b),
          [b.agentId, b.documentId]
        )
      }
      case 'agentDocuments.delete': {
        const { id } = parseArgs(c, args)
        return remove(
          'agentDocuments',
          id,
          (s) => {
            const link = data.cachedItem(s, 'agentDocuments', id)
            const doc = typeof link?.documentId === 'string' ? name(s, 'documents', link.documentId) : null
            const agent = typeof link?.agentId === 'string' ? name(s, 'agents', link.agentId) : null
            return doc && agent
              ? `Unlink document ${q(doc)} from agent ${q(agent)}`
              : 'Unlink a document from an agent'
          },
          (s) => client(s).agentDocuments.delete(id)
        )
      }
      case 'agentTools.create': {
        const b = parseArgs(c, args)
        const op = create(
          'agentTools',
          (s) => `Add tool ${q(name(s, 'tools', b.toolId))} to agent ${q(name(s, 'agents', b.agentId))}`,
          () => ({ ...b }),
          async (s) => keyedLink(await client(s).agentTools.create(b)),
          [b.agentId, b.toolId]
        )
        return op
      }
      case 'agentTools.delete': {
        const { id } = parseArgs(c, args)
        return remove(
          'agentTools',
          id,
          (s) => {
            const link = data.cachedItem(s, 'agentTools', id)
            const tool = typeof link?.toolId === 'string' ? name(s, 'tools', link.toolId) : null
            const agent = typeof link?.agentId === 'string' ? name(s, 'agents', link.agentId) : null
            return tool && agent
              ? `Remove tool ${q(tool)} from agent ${q(agent)}`
              : 'Remove a tool from an agent'
          },
          (s) => client(s).agentTools.delete(id)
        )
      }
    }
  }
  return build
}

// ------------------------------------------------------------------------------------------------
// The handler table
// ------------------------------------------------------------------------------------------------

async function write<C extends WriteChannel>(
  channel: C,
  input: ChannelParsedInput<C>,
  ctx: HandlerContext
): Promise<ChannelResult<C>> {
  const s = await ctx.lease()
  return (await ctx.data.write(s, channel, input)) as ChannelResult<C>
}

/** The resources read alike: a list and an item, through the cache (stale-while-revalidate, offline). */
type PlainResource = 'agents' | 'documents' | 'tools' | 'prompts' | 'tags'

function listHandler<R extends PlainResource>(r: R): Handler<`${R}.list`> {
  const h = async (i: { cacheOnly?: boolean | undefined } | undefined, ctx: HandlerContext) => {
    const s = await ctx.lease()
    return ctx.data.readList(s, r, 'all', () => client(s)[r].list(), { cacheOnly: i?.cacheOnly })
  }
  return h as unknown as Handler<`${R}.list`>
}

function getHandler<R extends PlainResource>(r: R): Handler<`${R}.get`> {
  const h = async (i: { id: string; cacheOnly?: boolean | undefined }, ctx: HandlerContext) => {
    const s = await ctx.lease()
    return ctx.data.readItem(s, r, i.id, () => client(s)[r].get(i.id), { cacheOnly: i.cacheOnly })
  }
  return h as unknown as Handler<`${R}.get`>
}

export const handlers: Handlers = {
  // ---- app
  'app.info': async (_i, ctx) => ({ ...ctx.info }),
  'app.openExternal': async ({ url }, ctx) => {
    const d = externalOpenDecision(url)
    if (!d.allow || !d.url) {
      throw new AppError({
        kind: 'validation',
        message: d.reason ?? 'Only web addresses (http or https) can be opened',
        fields: [{ field: 'url', message: 'Only http(s) addresses are opened' }]
      })
    }
    await ctx.openExternal(d.url)
    return { opened: true }
  },

  // ---- profiles
  'profiles.list': async (_i, ctx) => ctx.profiles.list(),
  'profiles.save': async (input, ctx) => {
    if (input.id === LOCAL_PROFILE_ID) {
      throw new AppError({ kind: 'validation', message: 'The Local workspace cannot be changed' })
    }
    const baseUrl = normalizeBaseUrl(input.baseUrl)
    const saved = ctx.profiles.saveRemote({ id: input.id, name: input.name, baseUrl })
    if (!saved) throw new AppError({ kind: 'not_found', message: 'That server profile no longer exists' })
    ctx.session.profileUpdated(saved)
    return saved
  },
  'profiles.remove': async ({ id }, ctx) => {
    if (id === LOCAL_PROFILE_ID) {
      throw new AppError({ kind: 'validation', message: 'The Local workspace cannot be removed' })
    }
    if (!ctx.profiles.get(id))
      throw new AppError({ kind: 'not_found', message: 'That server profile no longer exists' })
    await ctx.session.forgetProfile(id)
    ctx.profiles.remove(id)
    return { ok: true }
  },

  // ---- session
  'session.get': async (_i, ctx) => ctx.session.state(),
  'session.startLocal': async (_i, ctx) => ctx.session.startLocal(),
  'session.signIn': async (i, ctx) => ctx.session.signIn(i.profileId, i.email, i.password),
  'session.signInWithToken': async (i, ctx) => ctx.session.signInWithToken(i.profileId, i.token),
  'session.signUp': async (i, ctx) => ctx.session.signUp(i.profileId, i.email, i.password, i.name),
  'session.signOut': async (i, ctx) => ctx.session.signOut(i.clearCache),
  'session.reconnect': async (_i, ctx) => {
    if (!ctx.session.current()) return ctx.connectivity.get()
    await ctx.lease()
    const state = await ctx.connectivity.probeNow()
    if (state.online) await ctx.data.replay()
    return ctx.connectivity.get()
  },
  'capabilities.get': async (_i, ctx) => {
    const s = ctx.session.current()
    return s ? capabilityStoreFor(ctx.profiles, s.profile.id).all() : {}
  },

  // ---- agents
  'agents.list': listHandler('agents'),
  'agents.get': getHandler('agents'),
  'agents.create': (i, ctx) => write('agents.create', i, ctx),
  'agents.update': (i, ctx) => write('agents.update', i, ctx),
  'agents.delete': (i, ctx) => write('agents.delete', i, ctx),

  // ---- documents
  'documents.list': listHandler('documents'),
  'documents.get': getHandler('documents'),
  'documents.create': (i, ctx) => write('documents.create', i, ctx),
  'documents.rename': (i, ctx) => write('documents.rename', i, ctx),
  'documents.delete': (i, ctx) => write('documents.delete', i, ctx),

  // ---- tools
  'tools.list': listHandler('tools'),
  'tools.get': getHandler('tools'),
  'tools.create': (i, ctx) => write('tools.create', i, ctx),
  'tools.update': (i, ctx) => write('tools.update', i, ctx),
  'tools.delete': (i, ctx) => write('tools.delete', i, ctx),

  // ---- prompts
  'prompts.list': listHandler('prompts'),
  'prompts.get': getHandler('prompts'),
  'prompts.create': (i, ctx) => write('prompts.create', i, ctx),
  'prompts.update': (i, ctx) => write('prompts.update', i, ctx),
  'prompts.delete': (i, ctx) => write('prompts.delete', i, ctx),

  // ---- tags
  'tags.list': listHandler('tags'),
  'tags.get': getHandler('tags'),
  'tags.create': (i, ctx) => write('tags.create', i, ctx),
  'tags.update': (i, ctx) => write('tags.update', i, ctx),
  'tags.delete': (i, ctx) => write('tags.delete', i, ctx),

  // ---- API tokens: the renderer sees a masked preview, never a value, except create and reveal.
  'apiTokens.list': async (i, ctx) => {
    const s = await ctx.lease()
    const res = await ctx.data.readList(
      s,
      'apiTokens',
      'all',
      async () => (await client(s).apiTokens.list()).map(tokenView),
      { cacheOnly: i?.cacheOnly }
    )
    const out: Read<ApiTokenView[]> = { ...res, data: res.data.map((t) => stripToken(t)) }
    return out
  },
  'apiTokens.get': async (i, ctx) => {
    const s = await ctx.lease()
    const res = await ctx.data.readItem(
      s,
      'apiTokens',
      i.id,
      async () => tokenView(await client(s).apiTokens.get(i.id)),
      { cacheOnly: i.cacheOnly }
    )
    const out: Read<ApiTokenView> = { ...res, data: stripToken(res.data) }
    return out
  },
  'apiTokens.create': async (i, ctx) => {
    const s = await ctx.lease()
    let t: ApiToken
    try {
      t = await client(s).apiTokens.create({ description: i.description })
    } catch (e) {
      if (AppError.is(e) && isConnectivityError(e)) {
        ctx.connectivity.markOffline(e.message)
        throw new AppError({
          kind: e.kind,
          message:
            'Creating an API token needs the server: its value is shown only once. Try again when connected.'
        })
      }
      throw e
    }
    ctx.data.putItem(s, 'apiTokens', tokenView(t), now(), { prepend: true })
    ctx.connectivity.markOnline()
    return { status: 'done', data: t }
  },
  'apiTokens.reveal': async ({ id }, ctx) => {
    const s = await ctx.lease()
    const t = await client(s).apiTokens.get(id)
    if (!t.token)
      throw new AppError({ kind: 'not_found', message: "The server did not send this token's value" })
    return { token: t.token }
  },
  'apiTokens.delete': (i, ctx) => write('apiTokens.delete', i, ctx),

  // ---- links
  'agentDocuments.list': async (i, ctx) => {
    const s = await ctx.lease()
    const agentId = i?.agentId
    const scope = agentId ? `agent:${agentId}` : 'all'
    const opts: Parameters<DataService['readList']>[4] = { cacheOnly: i?.cacheOnly }
    if (agentId) opts.filter = (l) => l.agentId === agentId
    return ctx.data.readList(
      s,
      'agentDocuments',
      scope,
      () => client(s).agentDocuments.list(agentId ? { agentId } : {}),
      opts
    )
  },
  'agentDocuments.get': async (i, ctx) => {
    const s = await ctx.lease()
    return ctx.data.readItem(s, 'agentDocuments', i.id, () => client(s).agentDocuments.get(i.id), {
      cacheOnly: i.cacheOnly
    })
  },
  'agentDocuments.create': (i, ctx) => write('agentDocuments.create', i, ctx),
  'agentDocuments.delete': (i, ctx) => write('agentDocuments.delete', i, ctx),

  'agentTools.list': async (i, ctx) => {
    const s = await ctx.lease()
    const agentId = i?.agentId
    const scope = agentId ? `agent:${agentId}` : 'all'
    const opts: Parameters<DataService['readList']>[4] = { cacheOnly: i?.cacheOnly }
    if (agentId) opts.filter = (l) => l.agentId === agentId
    return ctx.data.readList(
      s,
      'agentTools',
      scope,
      async () => (await client(s).agentTools.list(agentId ? { agentId } : {})).map(keyedLink),
      opts
    )
  },
  'agentTools.create': (i, ctx) => write('agentTools.create', i, ctx),
  'agentTools.delete': (i, ctx) => write('agentTools.delete', i, ctx),

  // ---- outbox
  'outbox.list': async (_i, ctx) => {
    if (!ctx.session.current()) return []
    const s = await ctx.lease()
    return ctx.data.outboxList(s)
  },
  'outbox.retry': async ({ id }, ctx) => {
    const s = await ctx.lease()
    return ctx.data.retry(s, id)
  },
  'outbox.discard': async ({ id }, ctx) => {
    const s = await ctx.lease()
    return ctx.data.discard(s, id)
  },

  // ---- settings, updates
  ...desktopHandlers
}

/** A cached token view never carries a value, whatever an older cache row holds. */
function stripToken<T>(t: T): T {
  if (typeof t !== 'object' || t === null) return t
  const { token: _token, ...rest } = t as Record<string, unknown>
  return rest as T
}
