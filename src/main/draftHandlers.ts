/** The IPC handlers of drafts (unsaved form contents in the offline store); spread into ./handlers. */
import type { ChannelParsedInput, ChannelResult } from '../shared/ipc'
import type { ActiveSession, SessionManager } from './session'

export type DraftChannel = 'drafts.list' | 'drafts.save' | 'drafts.remove'

type DraftContext = { session: SessionManager; lease(): Promise<ActiveSession> }

export const draftHandlers: {
  [C in DraftChannel]: (input: ChannelParsedInput<C>, ctx: DraftContext) => Promise<ChannelResult<C>>
} = {
  'drafts.list': async (_i, ctx) => {
    if (!ctx.session.current()) return []
    return (await ctx.lease()).drafts.list()
  },
  'drafts.save': async ({ key, value }, ctx) => {
    if (!ctx.session.current()) return { kept: false }
    ;(await ctx.lease()).drafts.save(key, value)
    return { kept: true }
  },
  'drafts.remove': async ({ key }, ctx) => {
    if (!ctx.session.current()) return { kept: false }
    ;(await ctx.lease()).drafts.remove(key)
    return { kept: true }
  }
}

/** Unsaved drafts of the signed-in profile (the window asks before closing when there are any). */
export function unsavedDrafts(session: SessionManager): number {
  const s = session.current()
  if (!s || s.retired) return 0
  try {
    return s.drafts.count()
  } catch {
    return 0
  }
}
