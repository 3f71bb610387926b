/**
 * A list plan's texts (listWrite.ts) kept as slices of one string a step, not as hundreds of small
 * strings.
 */
import type { Item } from './listPorts'

/** A plan's texts per item: its row's JSON (undefined: a new item), what to write, what was given. */
export interface PlanTexts {
  rows: (string | undefined)[]
  writes: (string | null)[]
  given: (string | Item)[]
}

/**
 * The texts planned from item `from` on, made slices of one string: a step's texts are then one
 * large object, which the young generation's collections never copy, rather than hundreds of
 * small ones that they copy while the rest of the list comes (a text is ~1 kB).
 */
export function compactTexts({ rows, writes, given }: PlanTexts, from: number): void {
  const parts: string[] = []
  for (let i = from; i < rows.length; i++) {
    const r = rows[i]
    const w = writes[i]
    const g = given[i]
    if (r !== undefined) parts.push(r)
    if (w !== null && w !== undefined) parts.push(w)
    if (typeof g === 'string' && g !== r && g !== w) parts.push(g)
  }
  if (parts.length === 0) return
  const whole = parts.join('')
  let at = 0
  const slice = (t: string) => whole.slice(at, (at += t.length))
  for (let i = from; i < rows.length; i++) {
    const r = rows[i]
    const w = writes[i]
    const g = given[i]
    const rs = r === undefined ? r : slice(r)
    const ws = w === null || w === undefined ? w : slice(w)
    if (rs !== undefined) rows[i] = rs
    if (ws !== null && ws !== undefined) writes[i] = ws
    if (typeof g === 'string') given[i] = g === r ? (rs as string) : g === w ? (ws as string) : slice(g)
  }
}
