import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * One benchmark figure. A figure with an `id` is measured beside its `floor` — the least work that
 * could produce the same result, with the same dependencies, in the same run — and `ratio` is
 * always value / floor. `goal` bounds the ratio (for sizes without a floor: the value itself).
 */
export interface BenchRow {
  name: string
  value: number
  unit: string
  /** Stable id for comparing runs over time (`start.first`, `scale.cache.agents.cold.100000`…). */
  id?: string
  floor?: number
  /** 'lower' for times and sizes, 'higher' for throughputs. Default 'lower'. */
  better?: 'lower' | 'higher'
  /** Bound on the ratio (≤ for 'lower', ≥ for 'higher'); on the value when there is no floor. */
  goal?: number
  /** The goal bounds the value even though a floor is given (the initial JavaScript size). */
  goalOnValue?: boolean
  note?: string
}

/** One figure of `npm run bench -- --json FILE`. */
export interface BenchFigure {
  id: string
  value: number
  unit: string
  floor: number | null
  ratio: number | null
  better: 'lower' | 'higher'
  goal: number | null
  name: string
  /** What the figure is read beside (the floor's definition, its runs, the floor's own growth). */
  note?: string
}

export function ratioOf(r: BenchRow): number | undefined {
  return r.floor !== undefined && r.floor > 0 ? r.value / r.floor : undefined
}

/** True when the figure meets its goal (undefined when it has none). */
export function meetsGoal(r: BenchRow): boolean | undefined {
  if (r.goal === undefined) return undefined
  const x = r.floor !== undefined && !r.goalOnValue ? ratioOf(r) : r.value
  if (x === undefined) return undefined
  return (r.better ?? 'lower') === 'higher' ? x >= r.goal : x <= r.goal
}

export function toFigure(r: BenchRow & { id: string }): BenchFigure {
  const ratio = ratioOf(r)
  return {
    id: r.id,
    value: round(r.value),
    unit: r.unit,
    floor: r.floor !== undefined ? round(r.floor) : null,
    ratio: ratio !== undefined ? round(ratio, 3) : null,
    better: r.better ?? 'lower',
    goal: r.goal ?? null,
    name: r.name.trim(),
    ...(r.note ? { note: r.note } : {})
  }
}

const round = (n: number, digits = 2) => Number(n.toFixed(n >= 100 ? 1 : digits))

/** Writes the figures that have an id (the machine and date beside them). */
export function writeFigures(file: string, rows: BenchRow[], machine: Record<string, unknown>): void {
  const figures = rows.filter((r): r is BenchRow & { id: string } => r.id !== undefined).map(toFigure)
  writeFileSync(file, `${JSON.stringify({ ...machine, figures }, null, 2)}\n`)
}

/**
 * Runs a benchmark when its file is the script Node was started with (`node --import tsx
 * test/bench/x.ts`), printing its rows under `title`; does nothing when the file is imported.
 */
export function runAsScript(moduleUrl: string, title: string, run: () => Promise<BenchRow[]>): void {
  if (process.argv[1] === undefined || fileURLToPath(moduleUrl) !== process.argv[1]) return
  run()
    .then((rows) => printRows(title, rows))
    .catch((e: unknown) => {
      console.error(e)
      process.exit(1)
    })
}

export function printRows(title: string, rows: BenchRow[]): void {
  console.log(`\n## ${title}`)
  for (const r of rows) {
    const ratio = ratioOf(r)
    const floor = r.floor !== undefined ? `  floor ${fmt(r.floor)} ${r.unit}` : ''
    const rt = ratio !== undefined ? `  ratio ${ratio.toFixed(2)}` : ''
    const cmp = (r.better ?? 'lower') === 'higher' ? '≥' : '≤'
    const met = meetsGoal(r)
    const goal = r.goal !== undefined ? `  goal ${cmp} ${r.goal}${met === false ? ' (missed)' : ''}` : ''
    const id = r.id ? `  [${r.id}]` : ''
    const note = r.note ? `  (${r.note})` : ''
    console.log(`${r.name.padEnd(58)} ${fmt(r.value).padStart(10)} ${r.unit}${floor}${rt}${goal}${id}${note}`)
  }
}

export function fmt(n: number): string {
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2)
}

/**
 * Timed runs for a scale figure of `n` items: `runs` at least, and for a small list as many as
 * about 30,000 items' worth (at most 31). A list of 1,000 takes ~5–25 ms a run and swings by a
 * third from run to run: 3 or 7 runs gave medians of 0.98× and 1.85× in two runs of the bench an
 * hour apart (2026-11-30, `scale.main.agents.list.1000`).
 */
export const scaleRuns = (n: number, runs = 3): number => Math.max(runs, Math.min(31, Math.round(30_000 / n)))

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] ?? NaN
}

/**
 * The mean of the middle half: for samples that fall on frame boundaries (a keystroke → painted
 * is one or two frames of 16.7 ms plus the work), the median jumps a whole frame when the split
 * moves, the mean of the middle half does not, and outliers (a GC) still do not count.
 */
export const interquartileMean = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.slice(Math.floor(s.length / 4), s.length - Math.floor(s.length / 4))
  return mid.length ? mid.reduce((a, b) => a + b, 0) / mid.length : NaN
}

/** `scale.<figure>.growth`: cost per item at 100,000 over the cost per item at 10,000. */
export function growthRows(rows: BenchRow[]): BenchRow[] {
  const out: BenchRow[] = []
  const byFigure = new Map<string, Map<number, BenchRow>>()
  for (const r of rows) {
    const m = r.id?.match(/^scale\.(.+)\.(\d+)$/)
    if (!m || r.unit !== 'ms' || /\.block$/.test(m[1] as string)) continue
    const sizes = byFigure.get(m[1] as string) ?? new Map<number, BenchRow>()
    sizes.set(Number(m[2]), r)
    byFigure.set(m[1] as string, sizes)
  }
  for (const [figure, sizes] of byFigure) {
    const small = sizes.get(10_000)
    const large = sizes.get(100_000)
    if (small === undefined || large === undefined) continue
    const growth = (a: number, b: number) => b / 100_000 / (a / 10_000)
    // The floor's own growth, where both sizes have one: how much of it is the machine's.
    const floors = small.floor !== undefined && large.floor !== undefined
    out.push({
      id: `scale.${figure}.growth`,
      name: `${figure}: cost per item at 100,000 / at 10,000`,
      value: growth(small.value, large.value),
      unit: '×',
      goal: 1.2,
      ...(floors
        ? { note: `the floor’s: ${growth(small.floor as number, large.floor as number).toFixed(2)}×` }
        : {})
    })
  }
  return out
}
