/**
 * What the IPC channels answer (the result half of the contract in ./ipc): profiles and the
 * session, list reads and writes, the outbox, capabilities, app information.
 */
import type { AppErrorData } from './errors'
// ----------------------------------------------------------------------------------------------
// Result types
// ----------------------------------------------------------------------------------------------

/** The active profile's offline store (Settings › Offline data). */
export interface OfflineStoreInfo {
  /** Its size on disk (database and write-ahead log), in bytes. */
  bytes: number
  /** Items cached (every kind). */
  items: number
  /** Changes waiting in the outbox (never removed by clearing the cache). */
  pending: number
}

export interface Profile {
  id: string
  name: string
  baseUrl: string
  kind: 'local' | 'remote'
  /** The user chose plain http:// to another computer ("Insecure connection", shown in red). */
  insecure?: boolean
}

export interface SessionUser {
  id: string
  email: string
  name: string
}

export interface Connectivity {
  online: boolean
  /** When data was last fetched from the server for this profile and user. */
  lastSyncedAt: string | null
  lastError?: string
  /** A request has waited longer than a few seconds without an answer: "Not answering", not "Online". */
  slow?: boolean
}

export interface SessionState {
  status: 'signedOut' | 'signedIn'
  profile: Profile | null
  user: SessionUser | null
  authMethod: 'password' | 'apiToken' | null
  /** Where the session token is kept: the OS keychain, or (no Secret Service) memory for this run only. */
  keychain: 'os' | 'memory'
  keychainMessage?: string
  connectivity: Connectivity
  /** Why the last session ended, e.g. the server rejected the credential. */
  endedReason?: string
}

/** A backup of the Local workspace's database (`localWorkspace.backups`). */
export interface LocalBackup {
  /** The backup's file name: what `localWorkspace.restore` takes. */
  name: string
  createdAt: string
  bytes: number
}
export interface LocalBackupsState {
  /** Newest first. */
  backups: LocalBackup[]
  /** Set when the database was found damaged at start: it was moved aside and a fresh one begun. */
  damage: { error: string; movedTo: string; at: string; newestBackup: LocalBackup | null } | null
}

/** A read answered from the network, or from the cache when the server cannot be reached. */
export interface Read<T> {
  data: T
  source: 'network' | 'cache'
  syncedAt: string | null
  offline: boolean
  /** True when the server cannot list this resource and the list is the profile's local catalogue. */
  catalogue?: boolean
}

/** A change applied now, or queued in the outbox because the server cannot be reached. */
export type Write<T> = { status: 'done'; data: T } | { status: 'queued'; data: T; outboxId: string }

/**
 * 'uncertain': a write whose outcome is unknown (timeout, or the connection cut after it was sent):
 * it may be on the server already, so it is not sent again without a check or the user's word.
 * 'conflict': the item changed on the server since the edit was made (its `updatedAt` moved).
 */
export type OutboxStatus = 'pending' | 'replaying' | 'failed' | 'uncertain' | 'conflict'
/** What the user decides for an 'uncertain' or 'conflict' entry (discard is `outbox.discard`). */
export const OUTBOX_RESOLUTIONS = ['sendAnyway', 'takeServer'] as const
export type OutboxResolution = (typeof OUTBOX_RESOLUTIONS)[number]
export interface OutboxEntry {
  id: string
  seq: number
  channel: string
  /** What the user sees: "Rename document “Q3 report”". */
  label: string
  input: unknown
  createdAt: string
  status: OutboxStatus
  error?: AppErrorData
  attempts: number
  /** Not sent again before this time (the server asked to wait, or back-off). */
  retryAt?: string
  /** A 'conflict': the item as the server has it now, to compare with `input`. */
  server?: unknown
}

export type Capability = 'offered' | 'not_offered' | 'unknown'
export type Capabilities = Record<string, Capability>

export interface AppInfo {
  version: string
  platform: string
  mode: 'electron' | 'harness'
}

/** What the About dialog shows; Electron and Chromium are null outside Electron (the web harness). */
export interface AboutInfo {
  name: string
  version: string
  electron: string | null
  chromium: string | null
  node: string
  v8: string | null
  platform: string
  arch: string
  /** The folder holding the app's data (profiles, caches, the Local workspace). */
  dataDir: string
}

export type Unlink = { ok: true }

/**
 * A long list's answer comes in pieces (main serialises each one for IPC on its own event loop:
 * 100,000 items at once would hold it ~200 ms). The first piece is the reply's value, with
 * `more` beside it; the preload asks `answers.next` for the rest and hands the page the whole list.
 */
export interface AnswerMore {
  /** What `answers.next` is asked with. */
  id: string
  /**
   * The list's length (all pieces), when known: a list answered as it comes from a server is
   * counted only once it ended.
   */
  count?: number
}
/**
 * A list main holds as text, as it leaves main: JSON arrays of a few dozen items each, the list
 * being their items in order (offline/listText.ts `jsonParts`: one long text cost main 2–3× as
 * much to make and send).
 */
export type JsonParts = string[]

/**
 * How a list that left main as it came (before its end was known) ended, on its last piece: items
 * to list first (`first`, as JSON: items created offline, kept first) and the ids of items that an
 * earlier piece held and the list does not (`gone`: deleted meanwhile).
 */
export interface PieceAmends {
  first?: JsonParts
  gone?: string[]
}

/**
 * One further piece of a long list (`answers.next`): its items, or (a list main holds as text)
 * their JSON (JsonParts); `done` on the last one, which may amend the list (PieceAmends).
 */
export type AnswerPiece =
  { items: unknown[]; done: boolean } | ({ json: JsonParts; done: boolean } & PieceAmends)
