/** The IPC handlers of the desktop channels (settings, updates); spread into ../handlers. */
import type { ChannelParsedInput, ChannelResult } from '../../shared/ipc'
import { savedOrTold } from '../atomicFile'
import type { Desktop } from './desktop'

export type DesktopChannel = 'settings.get' | 'settings.set' | 'updates.check'

export const desktopHandlers: {
  [C in DesktopChannel]: (
    input: ChannelParsedInput<C>,
    ctx: { desktop: Desktop }
  ) => Promise<ChannelResult<C>>
} = {
  'settings.get': async (_i, ctx) => ctx.desktop.state(),
  'settings.set': async (input, ctx) => {
    const state = ctx.desktop.set(input)
    // A file that cannot be written is told (the setting applies for this run all the same).
    await savedOrTold('Your settings', ctx.desktop.saved())
    return state
  },
  'updates.check': async (_i, ctx) => ctx.desktop.checkForUpdates()
}
