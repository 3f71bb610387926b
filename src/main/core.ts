/**
 * The app core: the ONE entry point for every IPC call. The Electron adapter (src/main/electron/ipc.ts)
 * and the e2e web harness both use only `invoke` and `subscribe`.
 *
 * `invoke` refuses unknown channels, validates input with the channel's zod schema, runs the handler
 * and turns ANY thrown error into `{ ok: false, error }` (plain data). Results are plain JSON and
 * never carry the session token.
 */
import { z } from 'zod'
import { AppError, issuesToFields, type AppErrorData } from '../shared/errors'
import {
  ipcContract,
  type Channel,
  type EventName,
  type IpcEvents,
  type IpcReply,
  type OutboxEntry
} from '../shared/ipc'
import { createApiClient } from './api/client'
import { ConnectivityMonitor } from './connectivity'
import { DataService } from './data'
import { createDesktop, type Desktop } from './desktop/desktop'
import { createWriteOps, handlers, type HandlerContext } from './handlers'
import type { Keychain } from './keychain'
import { LocalWorkspace } from './localWorkspace'
import { ProfileStore } from './profiles'
import { capabilityStoreFor, SessionManager, SESSION_ENDED_MESSAGE, type ActiveSession } from './session'

export interface CoreOptions {
  userDataDir: string
  keychain: Keychain
  mode: 'electron' | 'harness'
  version: string
  openExternal: (url: string) => Promise<void>
  /** Deadline for one request to the server. Default 15000. */
  fetchTimeoutMs?: number
  /** scrypt cost of the embedded Local workspace service (tests use a low value). */
  serviceScryptCost?: number
  /** How often to probe the server while offline. Default 5000. */
  probeIntervalMs?: number
  /** Where unexpected errors are logged. Default: console.error. */
  log?: (message: string, err?: unknown) => void
  /** Settings and updates; default: settings.json in userDataDir, the feed at AGENT_DESK_UPDATE_URL. */
  desktop?: Desktop
}

export interface Core {
  invoke(channel: string, rawInput: unknown): Promise<IpcReply<unknown>>
  subscribe(listener: (event: EventName, payload: unknown) => void): () => void
  dispose(): Promise<void>
}

/** The only answers that may carry a token value: the user asked for it explicitly. */
const TOKEN_CHANNELS = new Set<string>(['apiTokens.create', 'apiTokens.reveal'])

/** `value` with every occurrence of `secret` in its strings (deep) replaced by a mask; same value when none. */
export function maskDeep(value: unknown, secret: string): unknown {
  if (typeof value === 'string') return value.includes(secret) ? value.split(secret).join('••••') : value
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    let out: unknown[] | null = null
    for (let i = 0; i < value.length; i++) {
      const v = value[i] as unknown
      const m = maskDeep(v, secret)
      if (m !== v) (out ??= value.slice())[i] = m
    }
    return out ?? value
  }
  let out: Record<string, unknown> | null = null
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key]
    const m = maskDeep(v, secret)
    if (m !== v) (out ??= { ...(value as Record<string, unknown>) })[key] = m
  }
  return out ?? value
}

function isChannel(c: unknown): c is Channel {
  return typeof c === 'string' && Object.prototype.hasOwnProperty.call(ipcContract, c)
}

function validationMessage(fields: { field: string; message: string }[]): string {
  const first = fields[0]
  if (fields.length === 1 && first) {
    return first.field === '(body)' ? first.message : `${first.field}: ${first.message}`
  }
  return `${fields.length} fields need attention`
}

export function createCore(opts: CoreOptions): Core {
  const log =
    opts.log ??
    ((message: string, err?: unknown) => {
      console.error(
        `[agent-desk] ${message}`,
        err instanceof Error ? (err.stack ?? err.message) : (err ?? '')
      )
    })
  const listeners = new Set<(event: EventName, payload: unknown) => void>()
  let disposed = false
  const inFlight = new Set<Promise<unknown>>()

  const emit = <E extends EventName>(event: E, payload: IpcEvents[E]) => {
    if (disposed) return
    for (const l of [...listeners]) {
      try {
        l(event, payload)
      } catch (e) {
        log(`An event listener failed on ${event}`, e)
      }
    }
  }

  const fetchTimeoutMs = opts.fetchTimeoutMs ?? 15_000
  const profiles = new ProfileStore(opts.userDataDir)
  const localOpts: ConstructorParameters<typeof LocalWorkspace>[0] = {
    userDataDir: opts.userDataDir,
    onUrl: (url) => profiles.setLocalBaseUrl(url)
  }
  if (opts.serviceScryptCost !== undefined) localOpts.scryptCost = opts.serviceScryptCost
  const local = new LocalWorkspace(localOpts)

  let data: DataService
  // The probe: a cheap GET with a short deadline and no retries; any answer means "reachable".
  let probeClient: { gen: number; baseUrl: string; client: ReturnType<typeof createApiClient> } | null = null
  const connectivity = new ConnectivityMonitor({
    intervalMs: opts.probeIntervalMs ?? 5000,
    probe: async () => {
      let s: ActiveSession
      try {
        s = await session.acquire()
      } catch (e) {
        if (AppError.is(e) && e.kind === 'signed_out') return
        throw e
      }
      try {
        if (!probeClient || probeClient.gen !== s.generation || probeClient.baseUrl !== s.profile.baseUrl) {
          const gen = s.generation
          probeClient = {
            gen,
            baseUrl: s.profile.baseUrl,
            client: createApiClient({
              baseUrl: s.profile.baseUrl,
              getToken: () => {
                const cur = session.current()
                return cur && cur.generation === gen ? cur.token : null
              },
              capabilities: capabilityStoreFor(profiles, s.profile.id),
              timeoutMs: Math.min(3000, fetchTimeoutMs),
              getRetries: 0,
              onUnauthorized: () => {
                void session.end(gen, SESSION_ENDED_MESSAGE)
              }
            })
          }
        }
        try {
          await probeClient.client.agents.get('agent-desk-connectivity-probe')
        } catch (e) {
          // Any answer from the server (not found, refused, …) means it can be reached.
          if (
            AppError.is(e) &&
            !(e.kind === 'network' || e.kind === 'timeout' || (e.kind === 'server' && (e.status ?? 0) >= 502))
          )
            return
          throw e
        }
      } finally {
        session.release(s)
      }
    },
    onChange: (state) => emit('connectivity.changed', state),
    onOnline: () => {
      void data.replay()
    }
  })

  const session: SessionManager = new SessionManager({
    userDataDir: opts.userDataDir,
    keychain: opts.keychain,
    profiles,
    local,
    fetchTimeoutMs,
    onChange: () => emit('session.changed', session.state()),
    onOpen: (s) => {
      let last: string | null = null
      try {
        const v = s.cache.getMeta('lastSyncedAt')
        last = typeof v === 'string' ? v : null
      } catch (e) {
        log('Could not read the last sync time', e)
      }
      connectivity.reset(last)
      // Anything still waiting from an earlier run goes out when the server answers.
      if (s.outbox.list().some((e: OutboxEntry) => e.status === 'pending' || e.status === 'replaying')) {
        for (const e of s.outbox.list()) if (e.status === 'replaying') s.outbox.markPending(e.id)
        setTimeout(() => {
          if (!disposed) void data.replay()
        }, 0)
      }
    },
    onClose: () => connectivity.stop(),
    connectivity: () => connectivity.get(),
    log
  })

  data = new DataService({ session, connectivity, emit, log }, (channel, args) => writeOps(channel, args))
  const writeOps = createWriteOps(data, session)

  const info = { version: opts.version, platform: process.platform, mode: opts.mode }
  const desktop = opts.desktop ?? createDesktop({ userDataDir: opts.userDataDir, version: opts.version, log })
  const stopDesktopEvents = desktop.onChange((state) => emit('settings.changed', state))

  function toErrorData(e: unknown, channel: string): AppErrorData {
    if (AppError.is(e)) return e.toData()
    log(`Unexpected failure in ${channel}`, e)
    return { kind: 'internal', message: 'Something went wrong inside Agent Desk. Try again.' }
  }

  /**
   * The session token never leaves, except on the channels that hand out a token value: every
   * string holding it is masked, deep. Walks the answer once and copies only what it changes, so
   * a 10,000-item list costs no serialisation round trip here.
   */
  function sanitize(channel: string, value: unknown): unknown {
    if (value === undefined) return null
    const token = session.current()?.token
    if (!token || token.length < 8 || TOKEN_CHANNELS.has(channel)) return value
    const masked = maskDeep(value, token)
    if (masked !== value) log(`Removed the session token from the answer to ${channel}`)
    return masked
  }

  async function run(channel: string, rawInput: unknown): Promise<IpcReply<unknown>> {
    if (disposed) {
      return { ok: false, error: { kind: 'internal', message: 'Agent Desk is shutting down.' } }
    }
    if (!isChannel(channel)) {
      return {
        ok: false,
        error: { kind: 'validation', message: 'Unknown operation', code: 'unknown_channel' }
      }
    }
    const schema: z.ZodType = ipcContract[channel].input
    const parsed = schema.safeParse(rawInput)
    if (!parsed.success) {
      const fields = issuesToFields(parsed.error.issues)
      return { ok: false, error: { kind: 'validation', message: validationMessage(fields), fields } }
    }
    const leases: ActiveSession[] = []
    const ctx: HandlerContext = {
      session,
      profiles,
      data,
      connectivity,
      info,
      openExternal: opts.openExternal,
      desktop,
      lease: async () => {
        const s = await session.acquire()
        leases.push(s)
        return s
      }
    }
    const handler = handlers[channel] as (input: unknown, ctx: HandlerContext) => Promise<unknown>
    try {
      await session.init()
      const value = await handler(parsed.data, ctx)
      return { ok: true, value: sanitize(channel, value) }
    } catch (e) {
      return { ok: false, error: toErrorData(e, channel) }
    } finally {
      for (const s of leases) session.release(s)
    }
  }

  return {
    invoke(channel, rawInput) {
      const p = run(channel, rawInput).catch((e: unknown): IpcReply<unknown> => ({
        ok: false,
        error: toErrorData(e, String(channel))
      }))
      inFlight.add(p)
      void p.finally(() => inFlight.delete(p))
      return p
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    async dispose() {
      if (disposed) return
      await Promise.allSettled([...inFlight])
      disposed = true
      stopDesktopEvents()
      connectivity.stop()
      await data.stop()
      listeners.clear()
      await session.dispose()
      await local.close()
    }
  }
}
