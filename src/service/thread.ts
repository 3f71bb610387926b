/**
 * The service on a worker thread of its own (the app's Local workspace): its HTTP server, SQLite and
 * JSON building run there, so its making of a page (~20 ms of SQLite per 500 agents) never shares a
 * turn of the caller's event loop (in the app, Electron's main process, which answers every IPC call) with the parse and
 * planning of the page before it. Clients speak HTTP to it as to any server; the few in-process
 * operations of RunningService (localSession, backups, close) are messages.
 *
 * `script` is the thread's entry, built on its own as one CommonJS file (electron.vite.config.ts,
 * `serviceThread.cjs`): Electron reads a worker's CommonJS from app.asar. threadEntry.ts is its
 * source.
 */
import { Worker } from 'node:worker_threads'
import type { UserStrict } from '../shared'
import type { BackupInfo, DamageNotice } from './backup'
import type { RunningService, ServiceOptions } from './index'

/** What crosses to the thread: the options less the logger (a function), plus whether to forward logs. */
export interface ThreadStart {
  options: Omit<ServiceOptions, 'logger'>
  forwardLogs: boolean
}

/** An in-process operation of RunningService, asked of the thread. */
export type ThreadOp =
  | { op: 'localSession'; input: { email: string; name: string } }
  | { op: 'backupNow' | 'backupsDone' | 'close' }

export type ThreadAsk = ThreadOp & { id: number }

export interface ThreadFailure {
  name: string
  message: string
}

export type ThreadTell =
  | { kind: 'started'; url: string; port: number; damage: DamageNotice | null }
  | { kind: 'failed'; error: ThreadFailure }
  | { kind: 'answer'; id: number; value: unknown }
  | { kind: 'refused'; id: number; error: ThreadFailure }
  | { kind: 'log'; line: string }

export interface ThreadService extends RunningService {
  /** The thread (its id in logs; tests end it to play a crash). */
  readonly worker: Worker
}

export interface ThreadHooks {
  /**
   * The thread stopped without being closed (a crash): every pending call was refused. Not called
   * after close(), nor when the service failed to start (startServiceOnThread rejects then).
   */
  onUnexpectedExit?: (error: Error) => void
}

/** An Error from the thread's failure, with its name (e.g. DataDirError) kept. */
function revive(f: ThreadFailure): Error {
  const e = new Error(f.message)
  e.name = f.name
  return e
}

export function failureOf(e: unknown): ThreadFailure {
  return e instanceof Error ? { name: e.name, message: e.message } : { name: 'Error', message: String(e) }
}

/** Starts the service on a new worker thread; resolves once it listens (or rejects as startService would). */
export function startServiceOnThread(
  opts: ServiceOptions,
  script: string,
  hooks: ThreadHooks = {}
): Promise<ThreadService> {
  const { logger, ...options } = opts
  const data: ThreadStart = { options, forwardLogs: logger !== undefined }
  // Not the caller's execArgv (loaders, --inspect…): the thread runs its one built file.
  const worker = new Worker(script, { workerData: data, execArgv: [] })
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  let nextId = 1
  let closing = false
  /** Why the thread is gone, once it is. */
  let gone: Error | null = null

  const ask = <T>(m: ThreadOp): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (gone) return reject(gone)
      const id = nextId++
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
      worker.postMessage({ id, ...m } satisfies ThreadAsk)
    })

  return new Promise<ThreadService>((resolveStart, rejectStart) => {
    let started = false
    worker.on('message', (m: ThreadTell) => {
      switch (m.kind) {
        case 'log':
          logger?.(m.line)
          return
        case 'failed':
          rejectStart(revive(m.error))
          // Whatever the failed start left open, the thread ends with it.
          void worker.terminate()
          return
        case 'answer':
        case 'refused': {
          const p = pending.get(m.id)
          pending.delete(m.id)
          if (m.kind === 'answer') p?.resolve(m.value)
          else p?.reject(revive(m.error))
          return
        }
        case 'started':
          started = true
          resolveStart(service(m))
      }
    })
    // An uncaught error ends the thread: 'exit' follows and says so to whoever waits.
    let crash: Error | null = null
    worker.on('error', (e) => (crash = e))
    worker.once('exit', (code) => {
      const error = crash ?? new Error(`The service's thread stopped (exit code ${code})`)
      gone = error
      for (const p of pending.values()) p.reject(error)
      pending.clear()
      if (!started) rejectStart(error)
      else if (!closing) hooks.onUnexpectedExit?.(error)
    })
  })

  function service(m: Extract<ThreadTell, { kind: 'started' }>): ThreadService {
    let closed: Promise<void> | null = null
    return {
      worker,
      url: m.url,
      port: m.port,
      damage: m.damage,
      localSession: (input) => ask<{ token: string; user: UserStrict }>({ op: 'localSession', input }),
      backupNow: () => ask<BackupInfo | null>({ op: 'backupNow' }),
      backupsDone: () => ask<void>({ op: 'backupsDone' }),
      close: () =>
        (closed ??= (async () => {
          closing = true
          try {
            await ask<void>({ op: 'close' })
          } finally {
            // Closed (or gone): the thread has nothing left to do; end it rather than wait for it.
            await worker.terminate()
          }
        })())
    }
  }
}
