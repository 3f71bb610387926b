/**
 * Calls into the core as the page does in Electron, for the benchmarks and profiling aids: the
 * page on a thread of its own (pageWorker.ts: the window API the preload builds, so a long list
 * comes in pieces and is gathered, and parsed where it comes as text, there), each call reaching
 * main as a message and each reply going back as one: serialised on main (a structured clone, as
 * Electron's IPC does with V8's serializer) and read on the page's thread. So main's figures hold
 * main's work only, as in the app, where the page is another process. A read of a list answers
 * `{ ...read, data: { length } }`; a failed call throws an Error naming the channel.
 */
import { Worker } from 'node:worker_threads'
import type { Core } from '../../src/main/core'
import type { FromPage, ToPage } from './pageWorker'

export type Call = <T>(channel: string, input: unknown) => Promise<T>

export interface PageCalls {
  call: Call
  /**
   * A call and its time as the page took it: from the page's call of the window API to its answer
   * there, as a page in Electron would time it. Timed on main, a call would also hold the two
   * messages that start it on the page's thread and bring its result back, which are the bench's
   * and not the app's (each a wake of a sleeping thread: 0.1–2 ms on the bench machine).
   */
  timed<T>(channel: string, input: unknown): Promise<{ value: T; ms: number }>
  /**
   * A full collection of the page thread's heap (untimed, between runs, as collect.ts does on
   * main): a run does not pay for collecting the list the run before left on the page.
   */
  collect(): Promise<void>
  /** Ends the page's thread. */
  close(): Promise<void>
}

export function electronCalls(core: Pick<Core, 'invoke'>): PageCalls {
  const file = new URL('./pageWorker.ts', import.meta.url).href
  const worker = new Worker(
    `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(file)}, ${JSON.stringify(import.meta.url)}))`,
    { eval: true }
  )
  const send = (m: ToPage) => worker.postMessage(m)
  let seq = 0
  const results = new Map<number, (m: FromPage & { kind: 'result' }) => void>()
  worker.on('message', (m: FromPage) => {
    if (m.kind === 'result') {
      results.get(m.id)?.(m)
      results.delete(m.id)
      if (results.size === 0) worker.unref()
      return
    }
    void core.invoke(m.channel, m.input).then((reply) => send({ kind: 'reply', id: m.id, reply }))
  })
  worker.unref()
  const timed = <T>(channel: string, input: unknown): Promise<{ value: T; ms: number }> =>
    new Promise((resolve, reject) => {
      const id = ++seq
      results.set(id, (m) =>
        m.ok ? resolve({ value: m.value as T, ms: m.ms }) : reject(new Error(`${channel}: ${m.message}`))
      )
      worker.ref() // a call waiting for its answer keeps the process alive (nothing else may)
      send({ kind: 'call', id, channel, input })
    })
  const call = async <T>(channel: string, input: unknown): Promise<T> =>
    (await timed<T>(channel, input)).value
  const collect = () =>
    new Promise<void>((resolve) => {
      const id = ++seq
      results.set(id, () => resolve())
      worker.ref()
      send({ kind: 'gc', id })
    })
  return {
    call,
    timed,
    collect,
    close: async () => {
      await worker.terminate()
    }
  }
}
