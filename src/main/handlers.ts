/**
 * The routing table: one handler per channel of the IPC table (a missing channel is a compile
 * error). The resource channels come from src/main/resources (generic list/get/write handlers
 * plus each resource's specifics); the app, profile, session and outbox channels are here.
 */
import { AppError } from '../shared/errors'
import { paletteNames } from '../shared/palette'
import { statSync } from 'node:fs'
import type { OfflineStoreInfo } from '../shared/ipc'
import { savedOrTold } from './atomicFile'
import { capabilityStoreFor } from './api/capabilities'
import { normalizeBaseUrl } from './api/transport'
import { LOCAL_PROFILE_ID } from './profiles'
import { resourceRoutes } from './resources'
import { externalOpenDecision } from './security'
import { aboutInfo } from './desktop/about'
import { desktopHandlers } from './desktop/handlers'
import { localWorkspaceHandlers } from './localWorkspaceHandlers'
import { draftHandlers } from './draftHandlers'
import { paletteItems } from './paletteItems'
import { transferHandlers } from './transfer/handlers'
import type { ActiveSession } from './session'
import type { Handlers } from './handlerContext'
import { nextTurn } from './turn'

export type { Handler, HandlerContext, Handlers } from './handlerContext'

/** Size on disk, items cached and changes waiting of a session's offline store. */
function offlineInfo(s: ActiveSession): OfflineStoreInfo {
  const size = (f: string) => {
    try {
      return statSync(f).size
    } catch {
      return 0
    }
  }
  return {
    bytes: size(s.storeFile) + size(`${s.storeFile}-wal`),
    items: s.cache.itemCount(),
    pending: s.outbox.list().length
  }
}

export const handlers: Handlers = {
  // ---- app
  'app.info': async (_i, ctx) => ({ ...ctx.info }),
  'app.about': async (_i, ctx) => aboutInfo({ version: ctx.info.version, userDataDir: ctx.userDataDir }),
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
    const before = input.id !== undefined ? ctx.profiles.get(input.id) : null
    const saved = ctx.profiles.saveRemote({ ...input, baseUrl })
    if (!saved) throw new AppError({ kind: 'not_found', message: 'That server profile no longer exists' })
    await savedOrTold('Your server profiles', ctx.profiles.saved())
    await ctx.session.profileUpdated(before, saved)
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
    await savedOrTold('Your server profiles', ctx.profiles.saved())
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
    if (state.online) await ctx.sync.replay()
    return ctx.connectivity.get()
  },
  'calls.cancel': async ({ callId }, ctx) => ({ cancelled: ctx.cancelCall(callId) }),
  'answers.next': async ({ id }, ctx) => {
    // Joined in a turn of the event loop of its own (not the one the message came in, which may
    // have read a page meanwhile), and sent (serialised by Electron as the reply leaves) in the
    // next: two short blocks of main, not one of all. A list still being read from the cache
    // answers the piece once its rows are read.
    await nextTurn()
    const s = ctx.session.current()
    const piece = await ctx.pieces.nextWhenReady(id, s, s?.token ?? null)
    await nextTurn()
    return piece
  },
  'capabilities.get': async (_i, ctx) => {
    const s = ctx.session.current()
    return s ? capabilityStoreFor(ctx.profiles, s.profile.id).all() : {}
  },

  // ---- agents, documents, tools, prompts, tags, API tokens, links
  ...resourceRoutes,

  // ---- outbox
  'outbox.list': async (_i, ctx) => {
    if (!ctx.session.current()) return []
    const s = await ctx.lease()
    return ctx.sync.outboxList(s)
  },
  'outbox.retry': async ({ id }, ctx) => {
    const s = await ctx.lease()
    return ctx.sync.retry(s, id)
  },
  'outbox.discard': async ({ id }, ctx) => {
    const s = await ctx.lease()
    return ctx.sync.discard(s, id)
  },
  'outbox.resolve': async ({ id, action }, ctx) => {
    const s = await ctx.lease()
    return ctx.sync.resolve(s, id, action)
  },

  // ---- the offline store (Settings › Offline data)
  'offline.info': async (_i, ctx) => {
    if (!ctx.session.current()) return null
    return offlineInfo(await ctx.lease())
  },
  'offline.clear': async (_i, ctx) => {
    const s = await ctx.lease()
    s.cache.clear()
    return offlineInfo(s)
  },

  // ---- the command palette: names from the offline cache, so it works offline too
  'palette.items': async (_i, ctx) => {
    if (!ctx.session.current()) return paletteNames([])
    return paletteItems((await ctx.lease()).cache)
  },

  // ---- drafts (unsaved form contents, in the offline store)
  ...draftHandlers,

  // ---- export, import, copy to another profile
  ...transferHandlers,

  // ---- Local workspace backups
  ...localWorkspaceHandlers,

  // ---- settings, updates
  ...desktopHandlers
}
