/**
 * The app core: the ONE entry point for every IPC call. The Electron adapter (src/main/electron/ipc.ts)
 * and the e2e web harness both use only `invoke` and `subscribe`.
 *
 * `invoke` refuses unknown channels and inputs over 1 MiB or 40 levels (before parsing), validates
 * input with the channel's zod schema, runs the handler and turns ANY thrown error into
 * `{ ok: false, error }` (plain data). Answers, errors and events leave main only here, and never
 * carry the session token (masked, deep; only the API-token channels may hand out token values).
 */
import { z } from 'zod'
import { ipcInputRefusal, LARGE_INPUT_CHANNELS } from '../shared/bounds'
import { AppError, issuesToFields, type AppErrorData } from '../shared/errors'
import { AnswerPieces } from './answerPieces'
import { CallRegistry, cancelledError, runInCall } from './callContext'
import {
  CallId,
  ipcContract,
  type Channel,
  type EventName,
  type IpcEvents,
  type IpcReply
} from '../shared/ipc'
import { ConnectivityMonitor } from './connectivity'
import { CachedApi } from './cachedApi'
import { createDesktop, type Desktop } from './desktop/desktop'
import { unsavedDrafts } from './draftHandlers'
import { createEventBus } from './events'
import { handlers, type HandlerContext } from './handlers'
import { buildWriteOp } from './resources'
import type { Lease } from './resources/kit'
import type { Keychain } from './keychain'
import { LocalWorkspace } from './localWorkspace'
import { maskSecrets, maskSecretsInSteps } from './mask'
import { ownerless } from './ownerless'
import { ComingListText } from './offline/listText'
import { ProfileRegistry } from './profiles'
import { serverProbe } from './serverProbe'
import { SessionManager, type ActiveSession } from './session'
import { SyncCoordinator } from './sync'

export interface CoreOptions {
  userDataDir: string
  keychain: Keychain
  mode: 'electron' | 'harness'
  version: string
  openExternal: (url: string) => Promise<void>
  /** Deadline for one request to the server. Default 15000. */
  fetchTimeoutMs?: number
  /** Deadline for one write (POST/PATCH/DELETE). Default 4 × fetchTimeoutMs (60000). */
  writeTimeoutMs?: number
  /** Attempts before a queued change is 'failed'. Default 5. */
  maxReplayAttempts?: number
  /** Back-off of a queued change after a 429/503 (first wait, cap). Default 1 s doubling to 5 min. */
  replayBackoff?: { baseMs?: number; capMs?: number }
  /** The Local workspace service thread's script: out/main/serviceThread.cjs beside main's bundle. */
  serviceThread: string
  /** scrypt cost of the embedded Local workspace service (tests use a low value). */
  serviceScryptCost?: number
  /** How often to probe the server while offline. Default 5000. */
  probeIntervalMs?: number
  /** A request pending this long makes the connectivity "slow" (not answering). Default 5000. */
  slowAfterMs?: number
  /** Items in one piece of a long list's answer (answerPieces.ts). Default 1,000. */
  answerPieceItems?: number
  /** A long list's answer waiting this long for its next piece to be asked is dropped. Default 60,000. */
  answerIdleMs?: number
  /** Where unexpected errors are logged. Default: console.error. */
  log?: (message: string, err?: unknown) => void
  /** Settings and updates; default: settings.json in userDataDir, the feed at AGENT_DESK_UPDATE_URL. */
  desktop?: Desktop
}

export interface Core {
  /**
   * One IPC call. With `callId` (the renderer's id for it) the call can be cancelled by
   * `calls.cancel`: its HTTP request is aborted and it answers 'cancelled' at once.
   */
  invoke(channel: string, rawInput: unknown, callId?: unknown): Promise<IpcReply<unknown>>
  subscribe(listener: (event: EventName, payload: unknown) => void): () => void
  /** Forms with unsaved changes in the signed-in profile (drafts): closing the window asks first. */
  unsavedDrafts(): number
  dispose(): Promise<void>
}

/** The only answers that may carry a token value: the user asked for it explicitly. */
const TOKEN_CHANNELS = new Set<string>(['apiTokens.create', 'apiTokens.reveal'])

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

/**
 * The input checked by its schema; null when the check itself fails. zod's compiled object check
 * can throw on inputs no JSON text produces (an object whose `length` is an array holding a
 * prototype-less object, found by core.fuzz.test.ts): that is a refused request, not an error
 * inside the app.
 */
function safeParseInput(schema: z.ZodType, input: unknown): ReturnType<z.ZodType['safeParse']> | null {
  try {
    return schema.safeParse(input)
  } catch {
    return null
  }
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
  /** The token to mask (set once the session manager exists). */
  let currentToken: () => string | null | undefined = () => null
  const calls = new CallRegistry()
  const pieces = new AnswerPieces({
    ...(opts.answerPieceItems !== undefined ? { pieceItems: opts.answerPieceItems } : {}),
    ...(opts.answerIdleMs !== undefined ? { idleMs: opts.answerIdleMs } : {})
  })

  const emit = <E extends EventName>(event: E, payload: IpcEvents[E]) => {
    if (disposed) return
    // Events leave main here (Electron's relay and the harness's stream): the token never does.
    const masked = mask(`the ${event} event`, payload)
    for (const l of [...listeners]) {
      try {
        l(event, masked)
      } catch (e) {
        log(`An event listener failed on ${event}`, e)
      }
    }
  }

  const fetchTimeoutMs = opts.fetchTimeoutMs ?? 15_000
  const profiles = new ProfileRegistry(opts.userDataDir)
  const localOpts: ConstructorParameters<typeof LocalWorkspace>[0] = {
    userDataDir: opts.userDataDir,
    serviceThread: opts.serviceThread,
    keychain: opts.keychain,
    log,
    onUrl: (url) => profiles.setLocalBaseUrl(url)
  }
  if (opts.serviceScryptCost !== undefined) localOpts.scryptCost = opts.serviceScryptCost
  const local = new LocalWorkspace(localOpts)

  const bus = createEventBus(log)
  const connectivity = new ConnectivityMonitor({
    intervalMs: opts.probeIntervalMs ?? 5000,
    onChange: (state) => emit('connectivity.changed', state),
    onOnline: () => bus.emit('connection.back', undefined),
    ...(opts.slowAfterMs !== undefined ? { slowAfterMs: opts.slowAfterMs } : {})
  })
  const session = new SessionManager({
    userDataDir: opts.userDataDir,
    keychain: opts.keychain,
    profiles,
    local,
    fetchTimeoutMs,
    ...(opts.writeTimeoutMs ? { writeTimeoutMs: opts.writeTimeoutMs } : {}),
    onChange: (state) => {
      pieces.keepOnly(session.current())
      emit('session.changed', state)
    },
    events: bus,
    connectivity: () => connectivity.get(),
    onRequest: () => connectivity.requestStarted(),
    log
  })
  currentToken = () => session.current()?.token
  const probe = serverProbe({ session, profiles, timeoutMs: Math.min(3000, fetchTimeoutMs) })
  const writeKit = { requireUserId: (s: Lease) => session.requireUserId(s) }
  const buildOp = (channel: string, args: unknown) => buildWriteOp(channel, args, writeKit)
  // A list in one answer from a server, past a piece, leaves as it comes (offline/listStream.ts).
  const cached = new CachedApi(
    { connectivity, events: bus, emit, log, streamAfter: pieces.textItems },
    buildOp
  )
  const sync = new SyncCoordinator({
    ...{ events: bus, connectivity, session, buildOp, probe, emit, log },
    ...(opts.maxReplayAttempts ? { maxAttempts: opts.maxReplayAttempts } : {}),
    ...(opts.replayBackoff ? { backoff: opts.replayBackoff } : {})
  })

  // A Local workspace session resumes at start: its service thread (~150–200 ms to listen) starts
  // now, while the window loads, not at the window's first call.
  void session
    .init()
    .then(() => (session.current()?.profile.kind === 'local' ? local.ensure() : undefined))
    .catch((e: unknown) => log('The Local workspace could not start', e))

  const info = { version: opts.version, platform: process.platform, mode: opts.mode }
  const desktop = opts.desktop ?? createDesktop({ userDataDir: opts.userDataDir, version: opts.version, log })
  const stopDesktopEvents = desktop.onChange((state) => emit('settings.changed', state))

  function toErrorData(e: unknown, channel: string): AppErrorData {
    if (AppError.is(e)) return mask(`the error of ${channel}`, e.toData()) as AppErrorData
    log(`Unexpected failure in ${channel}`, e)
    return { kind: 'internal', message: 'Something went wrong inside Agent Desk. Try again.' }
  }

  /**
   * The session token never leaves main: every string holding it is masked, deep, in answers,
   * errors and events. Walks the value once and copies only what it changes, so a 10,000-item
   * list costs no serialisation round trip here. (With no session there is nothing to mask:
   * maskSecrets skips a missing token.)
   */
  function mask(what: string, value: unknown): unknown {
    return logged(what, value, maskSecrets(value, [currentToken()]))
  }

  /** `masked`, with a log line when masking changed `value`. */
  function logged(what: string, value: unknown, masked: unknown): unknown {
    if (masked !== value) log(`Removed the session token from ${what}`)
    return masked
  }

  /**
   * Success answers: masked too, except on the channels that hand out a token value. A long list
   * is masked in steps (maskSecretsInSteps), so main answers other calls meanwhile.
   */
  async function sanitize(channel: string, value: unknown): Promise<unknown> {
    if (value === undefined) return null
    // A piece of a long list was masked with the whole answer, for the same token (answerPieces.ts).
    if (TOKEN_CHANNELS.has(channel) || channel === 'answers.next') return value
    return logged(`the answer to ${channel}`, value, await maskSecretsInSteps(value, [currentToken()]))
  }

  /** Runs the handler as call `callId` (cancellable), or plainly without one. */
  async function runCancellable(
    callId: unknown,
    work: () => Promise<IpcReply<unknown>>
  ): Promise<IpcReply<unknown>> {
    if (callId === undefined || callId === null) return work()
    const id = CallId.safeParse(callId)
    const controller = id.success ? calls.begin(id.data) : null
    if (!id.success || !controller) {
      return {
        ok: false,
        error: { kind: 'validation', message: 'Not a usable call id', code: 'bad_call_id' }
      }
    }
    const signal = controller.signal
    let onAbort = () => undefined as void
    const aborted = new Promise<IpcReply<unknown>>((resolve) => {
      onAbort = () => resolve({ ok: false, error: cancelledError().toData() })
      if (signal.aborted) onAbort()
      else signal.addEventListener('abort', onAbort, { once: true })
    })
    try {
      // The handler may go on briefly after a cancel (until its request notices the abort); the
      // caller is answered at once.
      return await Promise.race([runInCall(signal, work), aborted])
    } finally {
      signal.removeEventListener('abort', onAbort)
      calls.end(id.data, controller)
    }
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
    // Bounded before parsing: a 20 MiB or 50,000-level input is refused without being walked by zod.
    const refusal = ipcInputRefusal(rawInput, LARGE_INPUT_CHANNELS[channel])
    if (refusal)
      return { ok: false, error: { kind: 'validation', message: refusal, code: 'input_too_large' } }
    const schema: z.ZodType = ipcContract[channel].input
    const parsed = safeParseInput(schema, rawInput)
    if (!parsed) {
      return {
        ok: false,
        error: { kind: 'validation', message: 'The request could not be read', code: 'unreadable_input' }
      }
    }
    if (!parsed.success) {
      const fields = issuesToFields(parsed.error.issues)
      return { ok: false, error: { kind: 'validation', message: validationMessage(fields), fields } }
    }
    const leases: ActiveSession[] = []
    const ctx: HandlerContext = {
      session,
      profiles,
      cached,
      sync,
      connectivity,
      info,
      userDataDir: opts.userDataDir,
      openExternal: opts.openExternal,
      desktop,
      local,
      fetchTimeoutMs,
      cancelCall: (id) => calls.cancel(id),
      pieces,
      lease: async () => {
        const s = await session.acquire()
        leases.push(s)
        return s
      }
    }
    const handler = handlers[channel] as (input: unknown, ctx: HandlerContext) => Promise<unknown>
    let busy: Promise<void> | null = null
    try {
      await session.init()
      const value = await handler(parsed.data, ctx)
      // A list that leaves as it comes holds the session until it is written.
      const data = (value as { data?: unknown } | null)?.data
      if (data instanceof ComingListText) busy = data.busy
      // A long list leaves in pieces (answerPieces.ts): Electron serialises each reply on main.
      const owner = session.current()
      // The owner its items embed does not leave with a list (ownerless.ts).
      return await pieces.answer(ownerless(await sanitize(channel, value)), owner, owner?.token ?? null)
    } catch (e) {
      return { ok: false, error: toErrorData(e, channel) }
    } finally {
      const release = () => {
        for (const s of leases) session.release(s)
      }
      if (busy) void busy.then(release, release)
      else release()
    }
  }

  return {
    invoke(channel, rawInput, callId) {
      const p = runCancellable(callId, () => run(channel, rawInput)).catch(
        (e: unknown): IpcReply<unknown> => ({
          ok: false,
          error: toErrorData(e, String(channel))
        })
      )
      inFlight.add(p)
      void p.finally(() => inFlight.delete(p))
      return p
    },
    unsavedDrafts: () => unsavedDrafts(session),
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
      await sync.stop()
      listeners.clear()
      pieces.clear()
      await session.dispose()
      await local.close()
      await profiles.saved().catch(() => undefined)
      await desktop.saved().catch(() => undefined)
    }
  }
}
