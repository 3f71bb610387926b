/** The IPC handlers of the Local workspace's backups; spread into ./handlers. */
import { AppError } from '../shared/errors'
import type { ChannelParsedInput, ChannelResult } from '../shared/ipc'
import type { LocalWorkspace } from './localWorkspace'
import type { SessionManager } from './session'

export type LocalWorkspaceChannel = 'localWorkspace.backups' | 'localWorkspace.restore'

export const localWorkspaceHandlers: {
  [C in LocalWorkspaceChannel]: (
    input: ChannelParsedInput<C>,
    ctx: { local: LocalWorkspace; session: SessionManager }
  ) => Promise<ChannelResult<C>>
} = {
  'localWorkspace.backups': async (_i, ctx) => ctx.local.backups(),
  'localWorkspace.restore': async ({ name }, ctx) => {
    if (!(await ctx.local.backups()).backups.some((b) => b.name === name)) {
      throw new AppError({
        kind: 'not_found',
        message: 'That backup no longer exists',
        fields: [{ field: 'name', message: 'Choose one of the listed backups' }]
      })
    }
    let result: Awaited<ReturnType<LocalWorkspace['restore']>>
    try {
      result = await ctx.local.restore(name)
    } catch (e) {
      throw new AppError({
        kind: 'validation',
        message: `The backup could not be restored: ${e instanceof Error ? e.message : String(e)}. Nothing was changed.`
      })
    }
    // The restored database may know the local user under another id: mint a fresh session.
    if (ctx.session.current()?.profile.kind === 'local') await ctx.session.startLocal()
    return result
  }
}
