import { fileURLToPath } from 'node:url'

/** One printed benchmark figure: the value, the reference beside it and their ratio. */
export interface BenchRow {
  name: string
  value: number
  unit: string
  reference?: number
  ratio?: number
  note?: string
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
    const ref = r.reference !== undefined ? `  reference ${fmt(r.reference)} ${r.unit}` : ''
    const ratio = r.ratio !== undefined ? `  ratio ${r.ratio.toFixed(2)}` : ''
    const note = r.note ? `  (${r.note})` : ''
    console.log(`${r.name.padEnd(58)} ${fmt(r.value).padStart(10)} ${r.unit}${ref}${ratio}${note}`)
  }
}

function fmt(n: number): string {
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2)
}
