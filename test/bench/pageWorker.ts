/**
 * The page's side of electronCalls.ts, on a thread of its own as the renderer is a process of its
 * own: the window API as the preload builds it (`buildDeskApi`: a long list gathered from its
 * pieces, and parsed where it comes as text), its calls sent to main as messages. What it answers
 * back is small: a list's length in place of its items (main would otherwise pay for a copy the
 * app never makes).
 */
import { parentPort } from 'node:worker_threads'
import { buildDeskApi, CHANNELS, EVENT_NAMES } from '../../src/shared/ipc'
import { gcBetweenRuns } from './collect'

export type ToPage =
  | { kind: 'call'; id: number; channel: string; input: unknown }
  | { kind: 'reply'; id: number; reply: unknown }
  /** A full collection of the page's heap between runs (collect.ts), answered with an empty result. */
  | { kind: 'gc'; id: number }
export type FromPage =
  | { kind: 'invoke'; id: number; channel: string; input: unknown }
  /** `ms`: the call as the page timed it, from its call of the window API to its answer. */
  | { kind: 'result'; id: number; ok: true; value: unknown; ms: number }
  | { kind: 'result'; id: number; ok: false; message: string }

const port = parentPort
if (!port) throw new Error('pageWorker.ts runs as a worker')
const post = (m: FromPage) => port.postMessage(m)
let seq = 0
const waiting = new Map<number, (reply: unknown) => void>()
const api = buildDeskApi(
  CHANNELS,
  EVENT_NAMES,
  (channel, input) =>
    new Promise((resolve) => {
      const id = ++seq
      waiting.set(id, resolve)
      post({ kind: 'invoke', id, channel, input })
    }),
  () => () => undefined
) as Record<string, Record<string, (input: unknown) => Promise<unknown>>>

/** A read of a list answers its length, not its items. */
function small(value: unknown): unknown {
  const data = (value as { data?: unknown } | null)?.data
  return Array.isArray(data) ? { ...(value as object), data: { length: data.length } } : value
}

const gc = gcBetweenRuns()

port.on('message', (m: ToPage) => {
  if (m.kind === 'gc') {
    gc()
    return post({ kind: 'result', id: m.id, ok: true, value: null, ms: 0 })
  }
  if (m.kind === 'reply') {
    waiting.get(m.id)?.(m.reply)
    waiting.delete(m.id)
    return
  }
  const [ns = '', op = ''] = m.channel.split('.')
  const fn = api[ns]?.[op]
  if (!fn) return post({ kind: 'result', id: m.id, ok: false, message: `no channel ${m.channel}` })
  const t0 = performance.now()
  fn(m.input).then(
    (value) => post({ kind: 'result', id: m.id, ok: true, value: small(value), ms: performance.now() - t0 }),
    (e: Error) => post({ kind: 'result', id: m.id, ok: false, message: e.message })
  )
})
