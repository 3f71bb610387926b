/**
 * Export, import and "Copy to profile…": the file format (versioned, validated by zod on import)
 * and what the transfer channels answer. A file holds agents with the documents, tools, prompt and
 * tags they use, by `ref` (the id they had where they were exported); importing creates new items
 * and rebuilds the references with the ids the target server gives them.
 *
 * Secrets (a document's `authorization`, API token values) are in a file only when the user asked
 * for them (`secrets: true`). API tokens are never imported: a server issues its own values.
 */
import { z } from 'zod'
import { StrictId } from './common'

export const TRANSFER_FORMAT = 'agent-desk.workspace'
export const TRANSFER_VERSION = 1
/** A whole export file as the renderer hands it over (far above a 10,000-agent workspace). */
export const MAX_TRANSFER_BYTES = 32 * 1024 * 1024
/** Items of one kind in one file. */
export const MAX_TRANSFER_ITEMS = 100_000

/** The kinds of item a transfer creates, in the order they are created. */
export const TRANSFER_KINDS = [
  'tag',
  'prompt',
  'document',
  'tool',
  'agent',
  'agentDocument',
  'agentTool'
] as const
export type TransferKind = (typeof TRANSFER_KINDS)[number] | 'apiToken'

const Ref = z.string().min(1).max(256)
const Refs = z.array(Ref).max(10_000)
/** Each item is checked on its own when imported (its create schema): the envelope only keeps shapes. */
const Item = z.looseObject({ ref: Ref })
const Items = z.array(Item).max(MAX_TRANSFER_ITEMS)

export const TransferFile = z.object({
  format: z.literal(TRANSFER_FORMAT, { error: 'This is not an Agent Desk export file' }),
  version: z.number().int().min(1),
  exportedAt: z.string().max(64),
  /** Where it came from, for the preview: the profile's name and the app's version. */
  source: z
    .object({ profile: z.string().max(200), app: z.string().max(64) })
    .partial()
    .optional(),
  secrets: z.boolean(),
  tags: Items.default([]),
  prompts: Items.default([]),
  documents: Items.default([]),
  tools: Items.default([]),
  agents: Items.default([]),
  apiTokens: z.array(z.looseObject({})).max(MAX_TRANSFER_ITEMS).default([])
})
export type TransferFile = z.infer<typeof TransferFile>

/** The fields of each kind as written (besides `ref`); the agent's references are refs in the file. */
export interface ExportedTag {
  ref: string
  name: string
  color: string
}
export interface ExportedPrompt {
  ref: string
  name: string
  template: string
  input_variables: string[]
}
export interface ExportedDocument {
  ref: string
  name: string
  type: string
  url: string
  from_page: number | null
  to_page: number | string | null
  metadata: Record<string, unknown>
  splitter: Record<string, unknown> | null
  /** Only in a file made with secrets. */
  authorization?: Record<string, unknown> | null
}
export interface ExportedTool {
  ref: string
  name: string
  type: string
  description: string
  metadata: Record<string, unknown>
}
export interface ExportedAgent {
  ref: string
  name: string
  type: string
  llm: { provider: string; model: string }
  hasMemory: boolean
  promptRef: string | null
  documentRef: string | null
  tagRefs: string[]
  /** Linked through agent↔document and agent↔tool links. */
  documentRefs: string[]
  toolRefs: string[]
}
export { Refs as TransferRefs }

// ---------------------------------------------------------------------------------------------
// Channel inputs and answers
// ---------------------------------------------------------------------------------------------

/** What to export: every agent (and everything else), or these agents with what they use. */
export const ExportInput = z
  .object({
    agentIds: z.array(StrictId).max(MAX_TRANSFER_ITEMS).optional(),
    includeSecrets: z.boolean()
  })
  .strict()
export const ImportText = z
  .object({ text: z.string().min(1, 'Choose a file').max(MAX_TRANSFER_BYTES, 'The file is too large') })
  .strict()

/** Copy agents (with what they use) from the signed-in profile to another one. */
export const CopyInput = z
  .object({
    profileId: StrictId,
    agentIds: z.array(StrictId).min(1, 'Choose at least one agent').max(MAX_TRANSFER_ITEMS),
    includeSecrets: z.boolean(),
    /** How to reach a server profile (not needed for the Local workspace); used once, never kept. */
    credential: z
      .union([
        z
          .object({ email: z.string().trim().min(1).max(320), password: z.string().min(1).max(1024) })
          .strict(),
        z.object({ token: z.string().trim().min(1).max(4096) }).strict()
      ])
      .optional()
  })
  .strict()

export type TransferCounts = Record<
  'tags' | 'prompts' | 'documents' | 'tools' | 'agents' | 'apiTokens',
  number
>

export interface ExportResult {
  /** A suggested file name, e.g. `agent-desk-2026-11-24.json`. */
  fileName: string
  /** The file's text (JSON). */
  text: string
  counts: TransferCounts
  secrets: boolean
}

/** One item of a preview or a report: what it is, its name, and why it was refused or reused. */
export interface TransferEntry {
  kind: TransferKind
  name: string
  /** 'create': will be / was created; 'reuse': an existing item of the same name is used (tags); 'refuse': left out. */
  action: 'create' | 'reuse' | 'refuse'
  reason?: string
  /** The id it has on the target (report only, created or reused items). */
  id?: string
}

export interface TransferPreview {
  version: number
  exportedAt: string
  source: { profile?: string; app?: string }
  secrets: boolean
  counts: TransferCounts
  entries: TransferEntry[]
}

export interface TransferReport {
  /** Keys this transfer for `transfer.undo` (kept by main for a while). */
  transferId: string
  /** The profile the items were created in. */
  profileName: string
  entries: TransferEntry[]
  /** Set when it stopped part-way: what went wrong. What was created is in `entries` (action 'create'). */
  failure: { message: string } | null
}

export interface UndoResult {
  removed: number
  /** Items that could not be removed (already gone counts as removed). */
  failed: { kind: TransferKind; name: string; reason: string }[]
}
