/**
 * The command palette's keystroke (`palette.keystroke`): the palette's own filtering — the shared
 * fuzzy matcher ranking every item and keeping the best 50 (src/shared/fuzzy.ts `rank`, what
 * CommandPalette.vue runs on each keystroke, over the index it makes once of the names as main
 * sends them) — over 30,000 names (10,000 agents, documents and tools, with descriptions), beside
 * its floor: a plain loop of the same matcher over the same names, each folded in its own string,
 * that only counts matches. Median over a typed sequence of queries, interleaved with the floor,
 * several rounds. `--scale` adds 1,000 / 10,000 / 100,000 names of each kind.
 *
 *   node --import tsx test/bench/palette.ts
 */
import { foldQuery, foldText, fuzzyScore, rank, rankIndex } from '../../src/shared/fuzzy'
import { paletteNames, type PaletteNames } from '../../src/shared/palette'
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

/** A name as the floor reads it: its own string, folded once. */
interface FloorName {
  text: string
  folded: string
}

/**
 * Deterministic names like "Support watch 4711" with descriptions, `perKind` of each kind: as main
 * sends them to the palette (after a structured clone, as over IPC), and as the floor reads them.
 */
export function paletteData(perKind: number): { sent: PaletteNames; floor: FloorName[] } {
  let seed = 7
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31)
  const byKind = KINDS.map((kind) =>
    Array.from({ length: perKind }, (_, i) => {
      const a = WORDS[next() % WORDS.length] ?? ''
      const b = WORDS[next() % WORDS.length] ?? ''
      const name = `${a.charAt(0).toUpperCase()}${a.slice(1)} ${b} ${i}`
      return { id: `${kind}-${i}`, name, description: `${kind} for ${b} and ${a}` }
    })
  )
  const floor = byKind.flat().map(({ name }) => ({ text: name, folded: foldText(name) }))
  return { sent: structuredClone(paletteNames(byKind)), floor }
}

function time(fn: () => void): number {
  const t0 = performance.now()
  fn()
  return performance.now() - t0
}

/**
 * Keystrokes ranked by the app (over the index the palette makes once of the names it is sent) and
 * by the floor, interleaved; and how long the index took to make.
 */
function measure(
  data: { sent: PaletteNames; floor: FloorName[] },
  rounds: number
): { app: number; floor: number; index: number } {
  const app: number[] = []
  const floor: number[] = []
  let sink = 0
  const t0 = performance.now()
  const index = rankIndex(data.sent.names, data.sent.descriptions)
  const made = performance.now() - t0
  for (let r = 0; r < rounds; r++) {
    for (const q of TYPED) {
      app.push(time(() => (sink += rank(q, index, 50).length)))
      const folded = foldQuery(q)
      floor.push(
        time(() => {
          for (const e of data.floor) if (fuzzyScore(folded, e.folded, e.text) !== null) sink++
        })
      )
    }
  }
  if (sink < 0) console.log(sink)
  return { app: median(app), floor: median(floor), index: made }
}

export async function runPaletteBench(opts: { scale?: number[] } = {}): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const names = paletteData(10_000)
  measure(names, 2) // warm-up: JIT
  const m = measure(names, 5)
  rows.push({
    id: 'palette.keystroke',
    name: 'palette: a keystroke over 30,000 names (rank, best 50)',
    value: m.app,
    unit: 'ms',
    floor: m.floor,
    goal: 1.3,
    note: `median of ${TYPED.length * 5} keystrokes; floor: a plain loop of the same matcher; the names indexed (once a palette) in ${m.index.toFixed(1)} ms`
  })
  for (const n of opts.scale ?? []) {
    const data = paletteData(n)
    measure(data, 1)
    const s = measure(data, 3)
    rows.push({
      id: `scale.palette.keystroke.${n}`,
      name: `palette keystroke, ${n} names of each kind`,
      value: s.app,
      unit: 'ms',
      floor: s.floor,
      note: `the names indexed (once a palette) in ${s.index.toFixed(1)} ms`
    })
  }
  return rows
}

runAsScript(import.meta.url, 'Command palette: fuzzy ranking per keystroke', () =>
  runPaletteBench({ scale: process.argv.includes('--scale') ? [1000, 10_000, 100_000] : [] })
)
