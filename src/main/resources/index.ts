/**
 * Every resource of main, in one table: the write operations the outbox can replay and the IPC
 * handlers of the resource channels (each write channel is handled by the generic write handler).
 * Adding a resource = one file beside this one + its two lines here.
 */
import type { z } from 'zod'
import { AppError } from '../../shared/errors'
import { ipcContract, type Channel, type ChannelParsedInput } from '../../shared/ipc'
import { agentReads, agentWrites } from './agents'
import { apiTokenReads, apiTokenWrites } from './apiTokens'
import { documentReads, documentWrites } from './documents'
import { writeRoute, type WriteKit, type WriteOp } from './kit'
import { linkReads, linkWrites } from './links'
import { promptReads, promptWrites } from './prompts'
import { tagReads, tagWrites } from './tags'
import { toolReads, toolWrites } from './tools'

const writes = {
  ...agentWrites,
  ...documentWrites,
  ...toolWrites,
  ...promptWrites,
  ...tagWrites,
  ...apiTokenWrites,
  ...linkWrites
} satisfies { [C in Channel]?: (input: ChannelParsedInput<C>, kit: WriteKit) => WriteOp }

export type WriteChannel = keyof typeof writes

const reads = {
  ...agentReads,
  ...documentReads,
  ...toolReads,
  ...promptReads,
  ...tagReads,
  ...apiTokenReads,
  ...linkReads
}

const writeRoutes = Object.fromEntries(
  Object.keys(writes).map((c) => [c, writeRoute(c as WriteChannel)])
) as {
  [C in WriteChannel]: ReturnType<typeof writeRoute<C>>
}

/** The handlers of every resource channel. */
export const resourceRoutes = { ...reads, ...writeRoutes }

function isWriteChannel(channel: string): channel is WriteChannel {
  return Object.prototype.hasOwnProperty.call(writes, channel)
}

/** The write operation of a channel and its (queued) input; the input is checked again. */
export function buildWriteOp(channel: string, args: unknown, kit: WriteKit): WriteOp {
  if (!isWriteChannel(channel)) {
    throw new AppError({ kind: 'internal', message: `"${channel}" is not a change that can be queued` })
  }
  const schema: z.ZodType = ipcContract[channel as Channel].input
  const r = schema.safeParse(args)
  if (!r.success) {
    throw new AppError({ kind: 'validation', message: 'This queued change can no longer be sent as it is' })
  }
  const build = writes[channel] as (input: unknown, kit: WriteKit) => WriteOp
  return build(r.data, kit)
}
