/**
 * The service thread's entry (see thread.ts): starts the service with the options it was given,
 * says where it listens, then answers the caller's in-process operations until asked to close.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { startService, type RunningService } from './index'
import { failureOf, type ThreadAsk, type ThreadStart, type ThreadTell } from './thread'

const port = parentPort
if (!port) throw new Error('threadEntry runs on a worker thread only')
const tell = (m: ThreadTell) => port.postMessage(m)
const start = workerData as ThreadStart

async function answer(svc: RunningService, ask: ThreadAsk): Promise<unknown> {
  switch (ask.op) {
    case 'localSession':
      return svc.localSession(ask.input)
    case 'backupNow':
      return svc.backupNow()
    case 'backupsDone':
      return svc.backupsDone()
    case 'close':
      return svc.close()
  }
}

startService({
  ...start.options,
  ...(start.forwardLogs ? { logger: (line: string) => tell({ kind: 'log', line }) } : {})
}).then(
  (svc) => {
    port.on('message', (ask: ThreadAsk) => {
      answer(svc, ask).then(
        (value) => tell({ kind: 'answer', id: ask.id, value }),
        (e: unknown) => tell({ kind: 'refused', id: ask.id, error: failureOf(e) })
      )
    })
    tell({ kind: 'started', url: svc.url, port: svc.port, damage: svc.damage })
  },
  (e: unknown) => {
    tell({ kind: 'failed', error: failureOf(e) })
    port.close()
  }
)
