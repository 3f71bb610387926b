/**
 * The side-by-side view of a conflict: the fields the queued change sets, next to the item as the
 * server has it now, then the server's other fields.
 */
import type { OutboxEntry } from '../../../../shared/ipc'

export interface CompareRow {
  field: string
  mine: string
  server: string
  /** The change sets this field. */
  edited: boolean
  differs: boolean
}

const HIDDEN = new Set(['id', 'userId'])

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

export function show(v: unknown): string {
  if (v === undefined) return '—'
  if (typeof v === 'string') return v
  return JSON.stringify(v, null, 2) ?? String(v)
}

/** What the change sets: an update's patch, else its whole input. */
export function changeOf(entry: OutboxEntry): Record<string, unknown> {
  const args = isRecord(entry.input) ? entry.input.args : undefined
  if (isRecord(args) && isRecord(args.patch)) return args.patch
  return isRecord(args) ? args : {}
}

export function compareRows(entry: OutboxEntry): CompareRow[] {
  const mine = changeOf(entry)
  const server = isRecord(entry.server) ? entry.server : {}
  const rows: CompareRow[] = []
  for (const [field, value] of Object.entries(mine)) {
    const s = show(server[field])
    const m = show(value)
    rows.push({ field, mine: m, server: s, edited: true, differs: m !== s })
  }
  for (const [field, value] of Object.entries(server)) {
    if (field in mine || HIDDEN.has(field)) continue
    const s = show(value)
    rows.push({ field, mine: s, server: s, edited: false, differs: false })
  }
  return rows
}
