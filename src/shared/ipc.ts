/**
 * The IPC contract: ONE table, channel → input schema → result type.
 * Electron's ipcMain registration, the preload bridge and the e2e web harness all iterate it.
 */
import { z } from 'zod'
import type { AppErrorData } from './errors'
import { isHttpUrl, StrictId } from './common'
import { CallId, type CallOptions } from './calls'
import { addressAllowed, CLEARTEXT_MESSAGE } from './profileAddress'
import { SignInRequest, SignUpRequest } from './auth'
import { Agent, AgentCreate, AgentUpdate } from './agent'
import { Document, DocumentCreate, DocumentUpdate } from './document'
import { Tool, ToolCreate, ToolUpdate } from './tool'
import { Prompt, PromptCreate, PromptUpdate } from './prompt'
import { Tag, TagUpdate, TagColor, TagName } from './tag'
import { type ApiTokenView, ApiTokenCreate } from './apiToken'
import { AgentDocument, AgentDocumentCreate, AgentTool, AgentToolCreate } from './links'
import type { ApiToken } from './apiToken'
import { SettingsPatch, type SettingsState, type UpdateStatus } from './settings'
import type { PaletteNames } from './palette'
import { DraftKey, DraftSave, type DraftEntry } from './drafts'
import {
  CopyInput,
  ExportInput,
  ImportText,
  type ExportResult,
  type TransferPreview,
  type TransferReport,
  type UndoResult
} from './transfer'

export * from './results'
import type { EventName, IpcEvents } from './ipcEvents'
import {
  OUTBOX_RESOLUTIONS,
  type AboutInfo,
  type AnswerMore,
  type AnswerPiece,
  type PieceAmends,
  type AppInfo,
  type Capabilities,
  type Connectivity,
  type JsonParts,
  type LocalBackupsState,
  type OfflineStoreInfo,
  type OutboxEntry,
  type Profile,
  type Read,
  type SessionState,
  type Write
} from './results'

// ----------------------------------------------------------------------------------------------
// Inputs
// ----------------------------------------------------------------------------------------------

const Empty = z.object({}).strict().optional()
const ById = z.object({ id: StrictId })
const ListInput = z.object({ cacheOnly: z.boolean().optional() }).strict().optional()
const GetInput = z.object({ id: StrictId, cacheOnly: z.boolean().optional() })
const ProfileInput = z
  .object({
    id: StrictId.optional(),
    name: z.string().trim().min(1, 'Enter a name').max(100),
    baseUrl: z.string().trim().refine(isHttpUrl, 'Enter the server address, e.g. https://ams.example.com'),
    insecure: z.boolean().optional()
  })
  .refine((p) => addressAllowed(p.baseUrl, p.insecure), { message: CLEARTEXT_MESSAGE, path: ['baseUrl'] })

function op<R>() {
  return <I extends z.ZodType>(input: I) => ({ input, result: undefined as unknown as R })
}

const byIdPatch = <P extends z.ZodType>(patch: P) => z.object({ id: StrictId, patch })
type Op<R, I> = { input: I; result: R }
type Row<K extends string, R, I> = { [Key in K]: Op<R, I> }

/**
 * The five rows of a resource that is listed, read, created, changed and deleted: `<name>.list`,
 * `.get`, `.create`, `.<change>` (`update`, or `rename` for documents) and `.delete`.
 */
function crud<T>() {
  return <N extends string, V extends string, C extends z.ZodType, P extends z.ZodType>(
    name: N,
    create: C,
    change: V,
    patch: P
  ) =>
    ({
      [`${name}.list`]: op<Read<T[]>>()(ListInput),
      [`${name}.get`]: op<Read<T>>()(GetInput),
      [`${name}.create`]: op<Write<T>>()(create),
      [`${name}.${change}`]: op<Write<T>>()(byIdPatch(patch)),
      [`${name}.delete`]: op<Write<null>>()(ById)
    }) as Row<`${N}.list`, Read<T[]>, typeof ListInput> &
      Row<`${N}.get`, Read<T>, typeof GetInput> &
      Row<`${N}.create`, Write<T>, C> &
      Row<`${N}.${V}`, Write<T>, ReturnType<typeof byIdPatch<P>>> &
      Row<`${N}.delete`, Write<null>, typeof ById>
}

export const ipcContract = {
  'app.info': op<AppInfo>()(Empty),
  'app.openExternal': op<{ opened: boolean }>()(z.object({ url: z.string().max(4096) })),
  'app.about': op<AboutInfo>()(Empty),

  'profiles.list': op<Profile[]>()(Empty),
  'profiles.save': op<Profile>()(ProfileInput),
  'profiles.remove': op<{ ok: true }>()(ById),

  'session.get': op<SessionState>()(Empty),
  'session.startLocal': op<SessionState>()(Empty),
  'session.signIn': op<SessionState>()(SignInRequest.extend({ profileId: StrictId })),
  'session.signInWithToken': op<SessionState>()(
    z.object({ profileId: StrictId, token: z.string().trim().min(1, 'Paste an API token').max(4096) })
  ),
  'session.signUp': op<SessionState>()(SignUpRequest.extend({ profileId: StrictId })),
  'session.signOut': op<SessionState>()(z.object({ clearCache: z.boolean() })),
  'session.reconnect': op<Connectivity>()(Empty),
  'capabilities.get': op<Capabilities>()(Empty),
  /**
   * Cancels a running call by the id it was made with (`agentDesk.x.y(input, { id })`): its HTTP
   * request is aborted and it answers kind 'cancelled' at once. `cancelled: false` when no such
   * call runs (it already finished). A write cancelled after it was sent may still be done.
   */
  'calls.cancel': op<{ cancelled: boolean }>()(z.object({ callId: CallId }).strict()),
  /**
   * The next piece of a long list's answer (the reply's `more.id`): the preload gathers them, so a
   * page never calls this. Kind 'not_found', code 'answer_gone', once the answer is gone (taken, a
   * minute unasked, or another session or token began): the window API then asks for the list again.
   */
  'answers.next': op<AnswerPiece>()(z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) }).strict()),

  ...crud<Agent>()('agents', AgentCreate, 'update', AgentUpdate),
  ...crud<Document>()('documents', DocumentCreate, 'rename', DocumentUpdate),
  ...crud<Tool>()('tools', ToolCreate, 'update', ToolUpdate),
  ...crud<Prompt>()('prompts', PromptCreate, 'update', PromptUpdate),
  // userId is filled in by the main process from the session.
  ...crud<Tag>()('tags', z.object({ name: TagName, color: TagColor }), 'update', TagUpdate),

  'apiTokens.list': op<Read<ApiTokenView[]>>()(ListInput),
  'apiTokens.get': op<Read<ApiTokenView>>()(GetInput),
  /** The one answer that carries a token value: the user just made it and will copy it. */
  'apiTokens.create': op<Write<ApiToken>>()(ApiTokenCreate),
  'apiTokens.reveal': op<{ token: string }>()(ById),
  'apiTokens.delete': op<Write<null>>()(ById),

  'agentDocuments.list': op<Read<AgentDocument[]>>()(
    z.object({ agentId: StrictId.optional(), cacheOnly: z.boolean().optional() }).optional()
  ),
  'agentDocuments.get': op<Read<AgentDocument>>()(GetInput),
  'agentDocuments.create': op<Write<AgentDocument>>()(AgentDocumentCreate),
  'agentDocuments.delete': op<Write<null>>()(ById),

  'agentTools.list': op<Read<AgentTool[]>>()(
    z.object({ agentId: StrictId.optional(), cacheOnly: z.boolean().optional() }).optional()
  ),
  'agentTools.create': op<Write<AgentTool>>()(AgentToolCreate),
  'agentTools.delete': op<Write<null>>()(ById),

  'outbox.list': op<OutboxEntry[]>()(Empty),
  'outbox.retry': op<OutboxEntry[]>()(ById),
  'outbox.discard': op<OutboxEntry[]>()(ById),
  /** 'sendAnyway': send the change as it is; 'takeServer': drop it and keep the server's item. */
  'outbox.resolve': op<OutboxEntry[]>()(z.object({ id: StrictId, action: z.enum(OUTBOX_RESOLUTIONS) })),

  /** The active profile's offline store: size, items, changes waiting (null when signed out). */
  'offline.info': op<OfflineStoreInfo | null>()(Empty),
  /** Empties the active profile's cache (changes waiting in the outbox are kept); its new info. */
  'offline.clear': op<OfflineStoreInfo>()(Empty),
  /** Every cached agent, document, tool, prompt, tag and API token by name: the command palette. */
  'palette.items': op<PaletteNames>()(Empty),

  /** The signed-in profile's drafts (unsaved form contents), kept in its offline store. */
  'drafts.list': op<DraftEntry[]>()(Empty),
  /** Keeps a draft (secret-looking keys are dropped); `kept: false` when no one is signed in. */
  'drafts.save': op<{ kept: boolean }>()(DraftSave),
  'drafts.remove': op<{ kept: boolean }>()(z.object({ key: DraftKey }).strict()),

  /** The workspace (or these agents with what they use) as an export file's text. */
  'transfer.export': op<ExportResult>()(ExportInput),
  /** What importing this file into the signed-in profile would create, reuse and refuse. */
  'transfer.preview': op<TransferPreview>()(ImportText),
  /** Imports the file into the signed-in profile (stops at the first failure: see the report). */
  'transfer.import': op<TransferReport>()(ImportText),
  /** Copies agents with what they use to another profile. */
  'transfer.copy': op<TransferReport>()(CopyInput),
  /** Deletes what a recent import or copy created. */
  'transfer.undo': op<UndoResult>()(z.object({ transferId: StrictId }).strict()),

  'localWorkspace.backups': op<LocalBackupsState>()(Empty),
  /** Replaces the Local workspace's database with a backup (the current one is moved aside). */
  'localWorkspace.restore': op<LocalBackupsState & { movedAside: string | null }>()(
    z.object({ name: z.string().regex(/^service-\d{8}T\d{9}Z\.db$/, 'Choose one of the listed backups') })
  ),

  'settings.get': op<SettingsState>()(Empty),
  'settings.set': op<SettingsState>()(SettingsPatch),
  /** "Check for updates" (nothing is fetched when updates are off). */
  'updates.check': op<UpdateStatus>()(Empty)
} as const

export { CallId, type CallOptions }
export type IpcContract = typeof ipcContract
export type Channel = keyof IpcContract
export type ChannelInput<C extends Channel> = z.input<IpcContract[C]['input']>
export type ChannelParsedInput<C extends Channel> = z.output<IpcContract[C]['input']>
export type ChannelResult<C extends Channel> = IpcContract[C]['result']
export const CHANNELS = Object.keys(ipcContract) as Channel[]

/** What crosses the wire for every invoke: errors are data, so their kind and fields survive IPC. */
/**
 * A reply: its value (with `more` when a long list comes in pieces, AnswerMore), or its error. With
 * `json` (a list main holds as text), the value's `data` is those arrays' items, parsed by the preload.
 */
export type IpcReply<T> =
  { ok: true; value: T; more?: AnswerMore; json?: JsonParts } | { ok: false; error: AppErrorData }

/** IPC channel name on the wire (namespaced so nothing else can collide). */
export const wireChannel = (c: Channel) => `agent-desk:${c}`

export * from './ipcEvents'

// ----------------------------------------------------------------------------------------------
// The typed API the preload exposes as `window.agentDesk` (and the harness installs the same way).
// `agents.list` becomes `agentDesk.agents.list(input)`.
// ----------------------------------------------------------------------------------------------
type Namespaces = Channel extends `${infer N}.${string}` ? N : never
type OpsOf<N extends string> = Channel extends infer C ? (C extends `${N}.${infer O}` ? O : never) : never
type ChannelFn<C> = C extends Channel
  ? undefined extends ChannelInput<C>
    ? (input?: ChannelInput<C>, call?: CallOptions) => Promise<ChannelResult<C>>
    : (input: ChannelInput<C>, call?: CallOptions) => Promise<ChannelResult<C>>
  : never
/** A read asked for as the page began to load: its answer if it has come, else its promise. */
export type EarlyRead<T> = { value: T } | { promise: Promise<T> }
/** `session` (session.get) or `list:<namespace>` (that list from the cache, e.g. `list:agents`). */
export type EarlyKey = 'session' | `list:${string}`

export type DeskApi = {
  [N in Namespaces]: { [O in OpsOf<N>]: ChannelFn<`${N}.${O}`> }
} & {
  on<E extends EventName>(event: E, listener: (payload: IpcEvents[E]) => void): () => void
  /**
   * Takes (once) a read the preload asked for before the app's code arrived; undefined when there
   * is none (the caller asks as usual).
   */
  early?(key: EarlyKey): EarlyRead<unknown> | undefined
}

/**
 * Builds the DeskApi from the channel whitelist and two transport functions. Used by the preload
 * (ipcRenderer) and by the web harness (its bridge). Self-contained on purpose: the harness
 * injects it into the page as source text, so it must not close over imports.
 *
 * Every function takes an optional second argument `{ id }`: the call's id travels beside the
 * input (not in it) and `calls.cancel({ callId: id })` cancels it.
 *
 * With `startHash` (the page's `location.hash`), it also asks at once for what a start shows
 * first: the session and, on a list route, that list from the cache. The answers travel while the
 * app's code is still loading, and the app takes them with `early(key)` instead of asking again.
 */
export function buildDeskApi(
  channels: readonly string[],
  events: readonly string[],
  invoke: (channel: string, input: unknown, callId?: string) => Promise<unknown>,
  subscribe: (event: string, listener: (payload: unknown) => void) => () => void,
  startHash?: string
): unknown {
  type Reply =
    | { ok: true; value: unknown; more?: { id: string; count?: number }; json?: JsonParts }
    | { ok: false; error: { kind: string; message: string } }
  const itemsOfJson = (parts: JsonParts) => parts.flatMap((part) => JSON.parse(part) as unknown[]) // in order
  const api: Record<string, unknown> = {}
  for (const channel of channels) {
    const dot = channel.indexOf('.')
    const ns = channel.slice(0, dot)
    const name = channel.slice(dot + 1)
    const group = (api[ns] ??= {}) as Record<string, unknown>
    group[name] = async (input?: unknown, call?: { id?: unknown }) => {
      const callId = call && typeof call.id === 'string' ? call.id : undefined
      // A long list comes in pieces (AnswerMore), gathered here: the next asked for before this one
      // is read (main joins it meanwhile). If the answer is gone (answer_gone), asked again, once.
      let reply: Reply | undefined
      let whole: { value: unknown; data: unknown[]; id: string } | undefined
      let again = true
      for (;;) {
        if (reply === undefined) {
          reply = (await (callId === undefined
            ? invoke(channel, input)
            : invoke(channel, input, callId))) as Reply
        }
        if (!reply.ok && whole && again && (reply.error as { code?: unknown }).code === 'answer_gone') {
          again = false
          whole = undefined
          reply = undefined
          continue
        }
        if (!reply.ok) {
          const err = new Error(reply.error.message) as Error & Record<string, unknown>
          err.name = 'AppError'
          Object.assign(err, reply.error)
          throw err
        }
        if (!whole) {
          // The next piece asked for before this one is parsed (main reads it meanwhile).
          const next = reply.more ? invoke('answers.next', { id: reply.more.id }) : undefined
          next?.catch(() => undefined) // awaited below
          if (reply.json) (reply.value as { data: unknown }).data = itemsOfJson(reply.json)
          if (!reply.more || !next) return reply.value
          whole = { value: reply.value, data: (reply.value as { data: unknown[] }).data, id: reply.more.id }
          reply = (await next) as Reply
          continue
        }
        const piece = reply.value as { items?: unknown[]; json?: JsonParts; done: boolean } & PieceAmends
        const next = piece.done ? undefined : invoke('answers.next', { id: whole.id })
        next?.catch(() => undefined) // awaited below: not left unhandled while this piece is read
        const items = piece.json ? itemsOfJson(piece.json) : (piece.items ?? [])
        for (const item of items) whole.data.push(item)
        if (!next) {
          // A list that left main as it came, amended as it ended (PieceAmends).
          const gone = new Set(piece.gone ?? [])
          if (gone.size > 0 || piece.first) {
            const kept = whole.data.filter((item) => !gone.has((item as { id: string }).id))
            ;(whole.value as { data: unknown[] }).data = itemsOfJson(piece.first ?? []).concat(kept)
          }
          return whole.value
        }
        reply = (await next) as Reply
      }
    }
  }
  api.on = (event: string, listener: (payload: unknown) => void) => {
    if (!events.includes(event)) throw new Error(`Unknown event ${event}`)
    return subscribe(event, listener)
  }

  // (No named function constants in here: the harness's copy must not depend on a bundler helper.)
  const early = new Map<string, { done: boolean; value: unknown; promise: Promise<unknown> }>()
  const first: [key: string, channel: string, input: unknown][] = []
  if (typeof startHash === 'string') {
    const lists: Record<string, string> = {
      agents: 'agents',
      documents: 'documents',
      tools: 'tools',
      prompts: 'prompts',
      tags: 'tags',
      'api-tokens': 'apiTokens'
    }
    first.push(['session', 'session.get', undefined])
    const ns = lists[startHash.replace(/^#\/?/, '').split(/[/?]/)[0] || 'agents']
    if (ns) first.push([`list:${ns}`, `${ns}.list`, { cacheOnly: true }])
  }
  for (const [key, channel, input] of first) {
    const dot = channel.indexOf('.')
    const group = api[channel.slice(0, dot)] as Record<string, (i?: unknown) => Promise<unknown>> | undefined
    const call = group?.[channel.slice(dot + 1)]
    if (!call) continue
    const entry = { done: false, value: undefined as unknown, promise: call(input) }
    entry.promise.then(
      (v) => {
        entry.done = true
        entry.value = v
      },
      // A failed early read is dropped: the app asks again and reports what goes wrong.
      () => early.delete(key)
    )
    early.set(key, entry)
  }
  api.early = (key: string) => {
    const entry = early.get(key)
    if (!entry) return undefined
    early.delete(key)
    return entry.done ? { value: entry.value } : { promise: entry.promise }
  }
  return api
}

declare global {
  interface Window {
    agentDesk: DeskApi
  }
}

/** Convenience for tool/agent ids that may not exist on an agent-tool link. */
export const agentToolKey = (l: { agentId?: string | undefined; toolId?: string | undefined }) =>
  `${l.agentId ?? ''}:${l.toolId ?? ''}`
