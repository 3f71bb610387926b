/**
 * The main-process core in a process of its own, driven over Node's IPC channel by
 * test/support/coreProcess.ts (crash tests SIGKILL it and start it again on the same data folder).
 *
 * Run as `node --import tsx test/support/coreChild.ts` with AGENT_DESK_CHILD_DATA (the user-data
 * folder), stdio fd 3 = the IPC channel, fd 4 = a pipe for the "frozen" signal.
 *
 * - `{ t: 'invoke', rid, channel, input }` → `{ t: 'reply', rid, reply }` (core.invoke's answer).
 * - The keychain lives in the parent, like an OS keychain daemon outlives the app: `{ t: 'kc', … }`
 *   asks it, `{ t: 'kc-reply', rid, value }` answers.
 * - `{ t: 'freezeAfterRuns', runs }`: the `runs`-th SQLite statement run from now writes "frozen"
 *   to fd 4 (synchronously) and blocks the process right there, inside whatever transaction is
 *   open, until the parent kills it. The real statements run; only the timing is pinned.
 */
import { writeSync } from 'node:fs'
import Database from 'libsql'
import { createCore } from '../../src/main/core'
import type { Keychain } from '../../src/main/keychain'
import { testServiceThread } from './serviceThread'

type FromParent =
  | { t: 'invoke'; rid: number; channel: string; input: unknown }
  | { t: 'kc-reply'; rid: number; value: string | null }
  | { t: 'freezeAfterRuns'; runs: number }

const userDataDir = process.env.AGENT_DESK_CHILD_DATA
if (!userDataDir || !process.send) {
  console.error('coreChild: needs AGENT_DESK_CHILD_DATA and an IPC channel')
  process.exit(2)
}
const send = (m: unknown) => process.send?.(m)

// ---- the freeze point: every prepared statement's run() counts down once armed
interface RunnableProto {
  run(this: unknown, ...args: unknown[]): unknown
}
const probe = new Database(':memory:')
const statementProto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as RunnableProto
probe.close()
const realRun = statementProto.run
let runsLeft = 0
statementProto.run = function (this: unknown, ...args: unknown[]) {
  if (runsLeft > 0 && --runsLeft === 0) {
    writeSync(4, 'frozen\n')
    // Blocks this thread (and the open transaction) until SIGKILL; gives up after a minute.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000)
    process.exit(70)
  }
  return realRun.apply(this, args)
}

// ---- the keychain, kept by the parent
let kcRid = 0
const kcWaiting = new Map<number, (value: string | null) => void>()
function askKeychain(op: 'get' | 'set' | 'delete', account: string, secret?: string) {
  const rid = ++kcRid
  return new Promise<string | null>((resolve) => {
    kcWaiting.set(rid, resolve)
    send({ t: 'kc', rid, op, account, secret })
  })
}
const keychain: Keychain = {
  kind: 'os',
  get: (account) => askKeychain('get', account),
  set: async (account, secret) => {
    await askKeychain('set', account, secret)
  },
  delete: async (account) => {
    await askKeychain('delete', account)
  }
}

const core = createCore({
  mode: 'harness',
  version: '0.0.0-crash-test',
  serviceThread: testServiceThread(),
  userDataDir,
  keychain,
  fetchTimeoutMs: 5000,
  probeIntervalMs: 200,
  serviceScryptCost: 16,
  openExternal: async () => undefined,
  log: (message, err) => console.error(`[coreChild] ${message}`, err instanceof Error ? err.message : '')
})

process.on('message', (raw) => {
  const m = raw as FromParent
  if (m.t === 'kc-reply') {
    kcWaiting.get(m.rid)?.(m.value)
    kcWaiting.delete(m.rid)
  } else if (m.t === 'freezeAfterRuns') {
    runsLeft = m.runs
  } else if (m.t === 'invoke') {
    void core.invoke(m.channel, m.input).then((reply) => send({ t: 'reply', rid: m.rid, reply }))
  }
})
// The parent went away: so does this process, after closing the core as the app does on quit.
process.on('disconnect', () => {
  void core.dispose().finally(() => process.exit(0))
})
send({ t: 'ready' })
