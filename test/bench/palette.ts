/**
 * The command palette's keystroke (`palette.keystroke`): the palette's own filtering — the shared
 * fuzzy matcher ranking every entry and keeping the best 50 (src/shared/fuzzy.ts `rank`, what
 * CommandPalette.vue runs on each keystroke) — over 30,000 names (10,000 agents, documents and
 * tools, with descriptions), beside its floor: a plain loop of the same matcher over the same
 * names that only counts matches. Median over a typed sequence of queries, interleaved with the
 * floor, several rounds. `--scale` adds 1,000 / 10,000 / 100,000 names of each kind.
 *
 *   node --import tsx test/bench/palette.ts
 */
import { foldQuery, fuzzyScore, rank, rankable, type Rankable } from '../../src/shared/fuzzy'
import { median, runAsScript, type BenchRow } from './types'

const WORDS = [
  'support',
  'night',
  'watch',
  'handbook',
  'pricing',
  'search',
  'web',
  'calculator',
  'release',
  'notes'
]
const KINDS = ['Agent', 'Document', 'Tool'] as const
/** What a user types, one keystroke at a time, then a second search. */
const TYPED = ['s', 'su', 'sup', 'supp', 'supp w', 'supp wa', 'h', 'hb', 'hbk', 'hbk 4', 'calc', 'calc 12']

/** Deterministic names like "Support watch 4711" with descriptions, `perKind` of each kind. */
export function paletteNames(perKind: number): Rankable[] {
  const out: Rankable[] = []
  let seed = 7
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31)
  for (const kind of KINDS) {
    for (let i = 0; i < perKind; i++) {
      const a = WORDS[next() % WORDS.length] ?? ''
      const b = WORDS[next() % WORDS.length] ?? ''
      const text = `${a.charAt(0).toUpperCase()}${a.slice(1)} ${b} ${i}`
      const detail = `${kind} for ${b} and ${a}`
      out.push(rankable(text, detail)) // as the palette makes its entries
    }
  }
  return out
}

function time(fn: () => void): number {
  const t0 = performance.now()
  fn()
  return performance.now() - t0
}

function measure(entries: Rankable[], rounds: number): { app: number; floor: number } {
  const app: number[] = []
  const floor: number[] = []
  let sink = 0
  for (let r = 0; r < rounds; r++) {
    for (const q of TYPED) {
      app.push(time(() => (sink += rank(q, entries, 50).length)))
      const folded = foldQuery(q)
      floor.push(
        time(() => {
          for (const e of entries) if (fuzzyScore(folded, e.folded, e.text) !== null) sink++
        })
      )
    }
  }
  if (sink < 0) console.log(sink)
  return { app: median(app), floor: median(floor) }
}

export async function runPaletteBench(opts: { scale?: number[] } = {}): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const names = paletteNames(10_000)
  measure(names, 2) // warm-up: JIT
  const m = measure(names, 5)
  rows.push({
    id: 'palette.keystroke',
    name: 'palette: a keystroke over 30,000 names (rank, best 50)',
    value: m.app,
    unit: 'ms',
    floor: m.floor,
    goal: 1.3,
    note: `median of ${TYPED.length * 5} keystrokes; floor: a plain loop of the same matcher`
  })
  for (const n of opts.scale ?? []) {
    const entries = paletteNames(n)
    measure(entries, 1)
    const s = measure(entries, 3)
    rows.push({
      id: `scale.palette.keystroke.${n}`,
      name: `palette keystroke, ${n} names of each kind`,
      value: s.app,
      unit: 'ms',
      floor: s.floor
    })
  }
  return rows
}

runAsScript(import.meta.url, 'Command palette: fuzzy ranking per keystroke', () =>
  runPaletteBench({ scale: process.argv.includes('--scale') ? [1000, 10_000, 100_000] : [] })
)
