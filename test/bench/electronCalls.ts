/**
 * Calls into the core as the page does in Electron, for the benchmarks and profiling aids: through
 * the window API the preload builds (`buildDeskApi`, so a long list comes in pieces), each call
 * reaching main as a task of its own (a message does), and each reply serialised on main as
 * Electron's IPC does (V8's serializer, as `v8.serialize`): that is main's work, and can block it.
 * A failed call throws an Error naming the channel.
 */
import { serialize } from 'node:v8'
import { buildDeskApi, CHANNELS, EVENT_NAMES } from '../../src/shared/ipc'
import type { Core } from '../../src/main/core'

export type Call = <T>(channel: string, input: unknown) => Promise<T>

export function electronCalls(core: Core): Call {
  const api = buildDeskApi(
    CHANNELS,
    EVENT_NAMES,
    async (channel, input) => {
      await new Promise((resolve) => setImmediate(resolve))
      const reply = await core.invoke(channel, input)
      serialize(reply)
      return reply
    },
    () => () => undefined
  ) as Record<string, Record<string, (input: unknown) => Promise<unknown>>>
  return async <T>(channel: string, input: unknown): Promise<T> => {
    const [ns = '', op = ''] = channel.split('.')
    const fn = api[ns]?.[op]
    if (!fn) throw new Error(`no channel ${channel}`)
    return (await fn(input).catch((e: Error) => {
      throw new Error(`${channel}: ${e.message}`)
    })) as T
  }
}
