/**
 * Reading an export file for import: the envelope checked by zod (a newer format refused in
 * words), then each item checked on its own with the same create schema a form uses. What will be
 * created, reused (a tag of the same name already there) or refused, and why.
 */
import { z } from 'zod'
import { AgentCreate } from '../../shared/agent'
import { DocumentCreate } from '../../shared/document'
import { AppError } from '../../shared/errors'
import { PromptCreate } from '../../shared/prompt'
import { TagColor, TagName } from '../../shared/tag'
import { ToolCreate } from '../../shared/tool'
import {
  TRANSFER_VERSION,
  TransferFile,
  TransferRefs,
  type TransferEntry,
  type TransferKind
} from '../../shared/transfer'

const TagBody = z.object({ name: TagName, color: TagColor })
const AgentBody = AgentCreate.pick({ name: true, type: true, llm: true, hasMemory: true }).extend({
  promptRef: z.string().max(256).nullable().default(null),
  documentRef: z.string().max(256).nullable().default(null),
  tagRefs: TransferRefs.default([]),
  documentRefs: TransferRefs.default([]),
  toolRefs: TransferRefs.default([])
})

export type Creatable = 'tag' | 'prompt' | 'document' | 'tool'
/** One item to create (or a tag to reuse), its body checked. */
export interface Step {
  kind: Creatable
  ref: string
  name: string
  body: Record<string, unknown>
  /** A tag of the same name the target has already. */
  reuse?: { id: string; name: string; color: string }
}
export interface AgentStep {
  ref: string
  name: string
  body: z.output<typeof AgentBody>
  /** The agent's own references left out (refused or missing items), in words. */
  notes: string[]
  links: { kind: 'agentDocument' | 'agentTool'; ref: string; name: string }[]
}

export interface Plan {
  file: TransferFile
  steps: Step[]
  agents: AgentStep[]
  /** What the preview and the report show besides the steps: refusals. */
  refused: TransferEntry[]
}

/** The file's text as a checked envelope, or a validation error in words. */
export function readFile(text: string): TransferFile {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    throw new AppError({
      kind: 'validation',
      message: 'This file is not JSON: choose an Agent Desk export file'
    })
  }
  const version = raw && typeof raw === 'object' ? (raw as { version?: unknown }).version : undefined
  if (typeof version === 'number' && version > TRANSFER_VERSION) {
    throw new AppError({
      kind: 'validation',
      message: `This file was made by a newer Agent Desk (format ${version}); update the app to import it`
    })
  }
  const r = TransferFile.safeParse(raw)
  if (!r.success) {
    const first = r.error.issues[0]
    const where = first?.path.length ? ` (${first.path.join('.')})` : ''
    throw new AppError({
      kind: 'validation',
      message: `This is not an Agent Desk export file${where}: ${first?.message ?? 'unreadable'}`
    })
  }
  return r.data
}

/** A zod refusal in words: "url: Enter a public http(s) URL; type: …". */
function reasons(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ')
}

const nameOf = (item: Record<string, unknown>, kind: string): string =>
  typeof item.name === 'string' && item.name.trim() ? item.name : `(${kind} without a name)`

/** What importing `file` into a target with these tags would do. */
export function planImport(
  file: TransferFile,
  existingTags: { id: string; name?: string; color?: string }[]
): Plan {
  const steps: Step[] = []
  const refused: TransferEntry[] = []
  const byName = new Map(existingTags.map((t) => [(t.name ?? '').trim().toLowerCase(), t]))
  /** Refs that will exist on the target, with their names, by kind. */
  const ok = {
    tag: new Map<string, string>(),
    prompt: new Map<string, string>(),
    document: new Map<string, string>(),
    tool: new Map<string, string>()
  }
  const known = {
    tag: new Map<string, string>(),
    prompt: new Map<string, string>(),
    document: new Map<string, string>(),
    tool: new Map<string, string>()
  }

  const take = (kind: Creatable, items: Record<string, unknown>[], schema: z.ZodType) => {
    for (const item of items) {
      const ref = String(item.ref)
      const name = nameOf(item, kind)
      known[kind].set(ref, name)
      const { ref: _ref, ...fields } = item
      const r = schema.safeParse(fields)
      if (!r.success) {
        refused.push({ kind, name, action: 'refuse', reason: reasons(r.error) })
        continue
      }
      const body = r.data as Record<string, unknown>
      const step: Step = { kind, ref, name, body }
      if (kind === 'tag') {
        const same = byName.get(String(body.name).trim().toLowerCase())
        if (same)
          step.reuse = {
            id: same.id,
            name: same.name ?? String(body.name),
            color: same.color ?? String(body.color)
          }
      }
      ok[kind].set(ref, name)
      steps.push(step)
    }
  }
  take('tag', file.tags, TagBody)
  take('prompt', file.prompts, PromptCreate)
  take('document', file.documents, DocumentCreate)
  take('tool', file.tools, ToolCreate)

  const agents: AgentStep[] = []
  const missing = (kind: Creatable, ref: string) =>
    known[kind].has(ref) ? `${kind} “${known[kind].get(ref)}” was refused` : `its ${kind} is not in the file`
  for (const item of file.agents) {
    const name = nameOf(item, 'agent')
    const { ref: _ref, ...fields } = item
    const r = AgentBody.safeParse(fields)
    if (!r.success) {
      refused.push({ kind: 'agent', name, action: 'refuse', reason: reasons(r.error) })
      continue
    }
    const body = r.data
    const notes: string[] = []
    if (body.promptRef && !ok.prompt.has(body.promptRef)) {
      notes.push(`created without its prompt: ${missing('prompt', body.promptRef)}`)
      body.promptRef = null
    }
    if (body.documentRef && !ok.document.has(body.documentRef)) {
      notes.push(`created without its document: ${missing('document', body.documentRef)}`)
      body.documentRef = null
    }
    const lostTags = body.tagRefs.filter((t) => !ok.tag.has(t))
    if (lostTags.length)
      notes.push(
        `created without ${lostTags.length === 1 ? 'a tag' : `${lostTags.length} tags`} that were refused or missing`
      )
    body.tagRefs = body.tagRefs.filter((t) => ok.tag.has(t))
    const links: AgentStep['links'] = []
    const link = (kind: 'agentDocument' | 'agentTool', target: 'document' | 'tool', ref: string) => {
      const linkName = `${name} → ${ok[target].get(ref) ?? known[target].get(ref) ?? ref}`
      if (ok[target].has(ref)) links.push({ kind, ref, name: linkName })
      else
        refused.push({
          kind,
          name: linkName,
          action: 'refuse',
          reason: `Not linked: ${missing(target, ref)}`
        })
    }
    for (const ref of new Set(body.documentRefs)) link('agentDocument', 'document', ref)
    for (const ref of new Set(body.toolRefs)) link('agentTool', 'tool', ref)
    agents.push({ ref: String(item.ref), name, body, notes, links })
  }
  for (const t of file.apiTokens) {
    const name = typeof t.description === 'string' ? t.description : '(API token)'
    refused.push({
      kind: 'apiToken',
      name,
      action: 'refuse',
      reason: 'API tokens are not imported: the server issues its own token values'
    })
  }
  return { file, steps, agents, refused }
}

/** The preview's entries: every step, agent and link in creation order, then the refusals. */
export function previewEntries(plan: Plan): TransferEntry[] {
  const out: TransferEntry[] = plan.steps.map((s) =>
    s.reuse
      ? { kind: s.kind, name: s.name, action: 'reuse', reason: 'A tag of this name is there already' }
      : { kind: s.kind, name: s.name, action: 'create' }
  )
  for (const a of plan.agents) {
    out.push(
      a.notes.length
        ? { kind: 'agent', name: a.name, action: 'create', reason: a.notes.join('; ') }
        : { kind: 'agent', name: a.name, action: 'create' }
    )
  }
  for (const a of plan.agents)
    for (const l of a.links) out.push({ kind: l.kind as TransferKind, name: l.name, action: 'create' })
  return [...out, ...plan.refused]
}
