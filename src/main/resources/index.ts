/**
 * Every resource of main, in one table: the write operations the outbox can replay and the IPC
 * handlers of the resource channels. Adding a resource = one file beside this one + its lines here.
 */
import type { z } from 'zod'
import { AppError } from '../../shared/errors'
import { ipcContract, type Channel } from '../../shared/ipc'
import { agentRoutes, agentWrites } from './agents'
import { apiTokenRoutes, apiTokenWrites } from './apiTokens'
import { documentRoutes, documentWrites } from './documents'
import type { WriteKit, WriteOp } from './kit'
import { linkRoutes, linkWrites } from './links'
import { promptRoutes, promptWrites } from './prompts'
import { tagRoutes, tagWrites } from './tags'
import { toolRoutes, toolWrites } from './tools'

export const resourceRoutes = {
  ...agentRoutes,
  ...documentRoutes,
  ...toolRoutes,
  ...promptRoutes,
  ...tagRoutes,
  ...apiTokenRoutes,
  ...linkRoutes
}

const writes = {
  ...agentWrites,
  ...documentWrites,
  ...toolWrites,
  ...promptWrites,
  ...tagWrites,
  ...apiTokenWrites,
  ...linkWrites
}

export type WriteChannel = keyof typeof writes

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
