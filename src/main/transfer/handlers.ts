/**
 * The transfer channels: export, preview and import a file, copy agents to another profile, and
 * undo a recent import or copy. Reads go through the resource routes (server, or the offline
 * cache when offline); writes go straight to the target server, never through the outbox, so a
 * failure stops the import and says what was created.
 */
import { randomUUID } from 'node:crypto'
import { AppError } from '../../shared/errors'
import type { ChannelParsedInput, ChannelResult, Profile } from '../../shared/ipc'
import type { Agent } from '../../shared/agent'
import type { Document } from '../../shared/document'
import type { AgentDocument, AgentTool } from '../../shared/links'
import type { Prompt } from '../../shared/prompt'
import type { Tag } from '../../shared/tag'
import type { Tool } from '../../shared/tool'
import type { ApiToken } from '../../shared/apiToken'
import { authHeaderStoreFor, capabilityStoreFor } from '../api/capabilities'
import { createApiClient, type ApiClient } from '../api/client'
import type { HandlerContext } from '../handlerContext'
import { resourceRoutes } from '../resources'
import type { ActiveSession } from '../session'
import { localCredential, passwordCredential, profileOrThrow, tokenCredential } from '../signInFlows'
import { originOf } from '../tokenOrigin'
import { applyPlan, undoCreated, type Created } from './apply'
import { buildExport, countsOf, exportFileName, type Workspace } from './bundle'
import { planImport, previewEntries, readFile } from './plan'
import { listValues } from '../offline/listText'

export type TransferChannel =
  'transfer.export' | 'transfer.preview' | 'transfer.import' | 'transfer.copy' | 'transfer.undo'

/** Recent imports and copies that can be undone: what was created, and where. */
interface Undoable {
  client: ApiClient
  created: Created[]
  at: number
  /** Into the signed-in profile (its views are told when it changes). */
  here: boolean
}
/** The lists an import changes. */
const CHANGED = ['tags', 'prompts', 'documents', 'tools', 'agents', 'agentDocuments', 'agentTools'] as const
const UNDO_FOR_MS = 30 * 60_000
const UNDO_KEPT = 20
const undoable = new Map<string, Undoable>()
function keep(client: ApiClient, created: Created[], here: boolean): string {
  const id = randomUUID()
  const now = Date.now()
  for (const [k, u] of undoable) if (now - u.at > UNDO_FOR_MS) undoable.delete(k)
  while (undoable.size >= UNDO_KEPT) undoable.delete(undoable.keys().next().value as string)
  undoable.set(id, { client, created, at: now, here })
  return id
}

/** The signed-in profile's workspace, as the lists read it (server, or the cache offline). */
async function readWorkspace(ctx: HandlerContext, s: ActiveSession, secrets: boolean): Promise<Workspace> {
  const r = resourceRoutes
  const [agents, documents, tools, prompts, tags, agentDocuments, agentTools] = await Promise.all([
    r['agents.list'](undefined, ctx),
    r['documents.list'](undefined, ctx),
    r['tools.list'](undefined, ctx),
    r['prompts.list'](undefined, ctx),
    r['tags.list'](undefined, ctx),
    r['agentDocuments.list'](undefined, ctx),
    r['agentTools.list'](undefined, ctx)
  ])
  let apiTokens: ApiToken[] = []
  if (secrets && s.client) apiTokens = await s.client.apiTokens.list()
  return {
    agents: (await listValues(agents.data)) as Agent[],
    documents: (await listValues(documents.data)) as Document[],
    tools: (await listValues(tools.data)) as Tool[],
    prompts: (await listValues(prompts.data)) as Prompt[],
    tags: (await listValues(tags.data)) as Tag[],
    agentDocuments: (await listValues(agentDocuments.data)) as AgentDocument[],
    agentTools: (await listValues(agentTools.data)) as AgentTool[],
    apiTokens
  }
}

function requireOnline(ctx: HandlerContext, what: string): void {
  if (!ctx.connectivity.get().online) {
    throw new AppError({ kind: 'network', message: `${what} needs a connection to the server` })
  }
}

/** A client of another profile with a credential used for this copy only (never kept). */
async function targetOf(
  ctx: HandlerContext,
  input: ChannelParsedInput<'transfer.copy'>
): Promise<{ profile: Profile; client: ApiClient; userId: string }> {
  const deps = { profiles: ctx.profiles, local: ctx.local, fetchTimeoutMs: ctx.fetchTimeoutMs }
  const profile = profileOrThrow(ctx.profiles, input.profileId)
  if (ctx.session.current()?.profile.id === profile.id) {
    throw new AppError({
      kind: 'validation',
      message: 'Choose another profile: these agents are in this one already',
      fields: [{ field: 'profileId', message: 'Choose another profile' }]
    })
  }
  const c = input.credential
  if (profile.kind !== 'local' && !c) {
    throw new AppError({
      kind: 'validation',
      message: `Sign in to ${profile.name} to copy there`,
      fields: [{ field: 'credential', message: `Sign in to ${profile.name} to copy there` }]
    })
  }
  const cred =
    profile.kind === 'local'
      ? await localCredential(deps)
      : c && 'token' in c
        ? await tokenCredential(deps, profile, c.token)
        : await passwordCredential(
            deps,
            profile,
            (c as { email: string }).email,
            (c as { password: string }).password
          )
  const baseUrl = profile.kind === 'local' ? (await ctx.local.ensure()).url : profile.baseUrl
  const token = cred.token
  const client = createApiClient({
    baseUrl,
    getToken: () => token,
    tokenOrigin: () => cred.origin ?? originOf(baseUrl),
    capabilities: capabilityStoreFor(ctx.profiles, profile.id),
    authHeader: authHeaderStoreFor(ctx.profiles, profile.id),
    timeoutMs: ctx.fetchTimeoutMs
  })
  return { profile, client, userId: cred.user.id }
}

async function tagsOf(client: ApiClient): Promise<Tag[]> {
  try {
    return await client.tags.list()
  } catch {
    return [] // a server without a tag list: tags are created, not reused
  }
}

export const transferHandlers: {
  [C in TransferChannel]: (input: ChannelParsedInput<C>, ctx: HandlerContext) => Promise<ChannelResult<C>>
} = {
  'transfer.export': async ({ agentIds, includeSecrets }, ctx) => {
    const s = await ctx.lease()
    const ws = await readWorkspace(ctx, s, includeSecrets)
    const now = new Date()
    const file = buildExport(ws, {
      agentIds,
      includeSecrets,
      profile: s.profile.name,
      app: ctx.info.version,
      now
    })
    return {
      fileName: exportFileName(s.profile.name, now),
      text: JSON.stringify(file, null, 2),
      counts: countsOf(file),
      secrets: includeSecrets
    }
  },
  'transfer.preview': async ({ text }, ctx) => {
    const file = readFile(text)
    const tags = (await listValues((await resourceRoutes['tags.list'](undefined, ctx)).data)) as Tag[]
    const plan = planImport(file, tags)
    return {
      version: file.version,
      exportedAt: file.exportedAt,
      source: file.source ?? {},
      secrets: file.secrets,
      counts: countsOf(file),
      entries: previewEntries(plan)
    }
  },
  'transfer.import': async ({ text }, ctx) => {
    const file = readFile(text)
    const s = await ctx.lease()
    requireOnline(ctx, 'Importing')
    const client = ctx.session.client(s)
    const plan = planImport(file, await tagsOf(client))
    const applied = await applyPlan(plan, client, () => ctx.session.requireUserId(s))
    ctx.cached.announce(CHANGED)
    return {
      transferId: keep(client, applied.created, true),
      profileName: s.profile.name,
      entries: applied.entries,
      failure: applied.failure
    }
  },
  'transfer.copy': async (input, ctx) => {
    const s = await ctx.lease()
    const ws = await readWorkspace(ctx, s, input.includeSecrets)
    const file = buildExport(ws, {
      agentIds: input.agentIds,
      includeSecrets: input.includeSecrets,
      profile: s.profile.name,
      app: ctx.info.version
    })
    const target = await targetOf(ctx, input)
    const plan = planImport(readFile(JSON.stringify(file)), await tagsOf(target.client))
    const applied = await applyPlan(plan, target.client, async () => {
      if (!target.userId)
        throw new AppError({
          kind: 'forbidden',
          message: `Could not tell who is signed in to ${target.profile.name}`
        })
      return target.userId
    })
    return {
      transferId: keep(target.client, applied.created, false),
      profileName: target.profile.name,
      entries: applied.entries,
      failure: applied.failure
    }
  },
  'transfer.undo': async ({ transferId }, ctx) => {
    const u = undoable.get(transferId)
    if (!u || Date.now() - u.at > UNDO_FOR_MS) {
      throw new AppError({ kind: 'not_found', message: 'That import can no longer be undone' })
    }
    undoable.delete(transferId)
    const result = await undoCreated(u.client, u.created)
    if (u.here) ctx.cached.announce(CHANGED)
    return result
  }
}
