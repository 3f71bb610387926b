/**
 * Parent side of test/support/coreChild.ts: starts the core in a child process on a user-data
 * folder, calls its IPC channels, holds its keychain (so a restarted child finds its session),
 * and kills it with SIGKILL at a chosen point.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { Readable } from 'node:stream'
import { wholeReply } from './wholeReply'
import type { Channel, ChannelInput, ChannelResult, IpcReply } from '../../src/shared/ipc'

const SCRIPT = fileURLToPath(new URL('./coreChild.ts', import.meta.url))

export interface CoreProcess {
  pid: number
  invoke(channel: string, input?: unknown): Promise<IpcReply<unknown>>
  /** The channel's value; throws with the error's kind and message when it failed. */
  call<C extends Channel>(channel: C, input?: ChannelInput<C>): Promise<ChannelResult<C>>
  /** Arms the freeze point; resolves when the child reports it is frozen there. */
  freezeAfterRuns(runs: number): Promise<void>
  /** SIGKILL; resolves once the process is gone. */
  kill(): Promise<void>
  /** Graceful end (disconnect); resolves once the process is gone. */
  stop(): Promise<void>
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

type FromChild =
  | { t: 'ready' }
  | { t: 'reply'; rid: number; reply: IpcReply<unknown> }
  | { t: 'kc'; rid: number; op: 'get' | 'set' | 'delete'; account: string; secret?: string }

export async function startCoreProcess(
  userDataDir: string,
  keychain: Map<string, string>
): Promise<CoreProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
    env: { ...process.env, AGENT_DESK_CHILD_DATA: userDataDir },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc', 'pipe']
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal }))
  )
  const waiting = new Map<number, (r: IpcReply<unknown>) => void>()
  let rid = 0
  let onReady: () => void = () => undefined
  const ready = new Promise<void>((resolve) => (onReady = resolve))
  child.on('message', (raw) => {
    const m = raw as FromChild
    if (m.t === 'ready') onReady()
    else if (m.t === 'reply') {
      waiting.get(m.rid)?.(m.reply)
      waiting.delete(m.rid)
    } else if (m.t === 'kc') {
      let value: string | null = null
      if (m.op === 'get') value = keychain.get(m.account) ?? null
      else if (m.op === 'set') keychain.set(m.account, m.secret ?? '')
      else keychain.delete(m.account)
      if (child.connected) child.send({ t: 'kc-reply', rid: m.rid, value })
    }
  })
  const signals = child.stdio[4] as Readable
  let frozenText = ''
  let onFrozen: () => void = () => undefined
  signals.on('data', (c: Buffer) => {
    frozenText += c.toString('utf8')
    if (frozenText.includes('frozen')) onFrozen()
  })
  await Promise.race([
    ready,
    exited.then((e) => {
      throw new Error(`The core process exited before it was ready (${e.code ?? e.signal})`)
    })
  ])

  const invoke = (channel: string, input?: unknown) =>
    new Promise<IpcReply<unknown>>((resolve, reject) => {
      const id = ++rid
      waiting.set(id, resolve)
      void exited.then(() => {
        if (waiting.delete(id)) reject(new Error(`The core process ended before answering ${channel}`))
      })
      child.send({ t: 'invoke', rid: id, channel, input })
    })
  const gone = async (how: () => void) => {
    if (child.exitCode === null && child.signalCode === null) how()
    await exited
  }
  return {
    pid: child.pid ?? -1,
    invoke,
    async call(channel, input) {
      const r = await wholeReply(await invoke(channel, input), invoke)
      if (!r.ok) throw new Error(`${channel} failed: ${r.error.kind}: ${r.error.message}`)
      return r.value as ChannelResult<typeof channel>
    },
    freezeAfterRuns(runs) {
      const frozen = new Promise<void>((resolve) => (onFrozen = resolve))
      child.send({ t: 'freezeAfterRuns', runs })
      return Promise.race([
        frozen,
        exited.then(() => {
          throw new Error('The core process ended before it reached the freeze point')
        })
      ])
    },
    kill: () => gone(() => child.kill('SIGKILL')),
    stop: () => gone(() => child.disconnect()),
    exited
  }
}
