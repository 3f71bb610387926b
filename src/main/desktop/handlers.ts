/** The IPC handlers of the desktop channels (settings, updates); spread into ../handlers. */
import type { ChannelParsedInput, ChannelResult } from '../../shared/ipc'
import type { Desktop } from './desktop'

export type DesktopChannel = 'settings.get' | 'settings.set' | 'updates.check'

export const desktopHandlers: {
  [C in DesktopChannel]: (
    input: ChannelParsedInput<C>,
    ctx: { desktop: Desktop }
  ) => Promise<ChannelResult<C>>
} = {
  'settings.get': async (_i, ctx) => ctx.desktop.state(),
  'settings.set': async (input, ctx) => ctx.desktop.set(input),
  'updates.check': async (_i, ctx) => ctx.desktop.checkForUpdates()
}
