/**
 * Turns the figures of `npm run bench -- --json FILE` into the README's table:
 *
 *   node --import tsx test/bench/table.ts FILE [FILE2]      # prints the Markdown
 *   node --import tsx test/bench/table.ts --readme FILE [FILE2]  # replaces it in README.md
 *
 * With two files (two runs at different times), each ratio is shown as the range of both.
 * The table sits between `<!-- bench-table:start -->` and `<!-- bench-table:end -->`.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { fmt, type BenchFigure } from './types'

export interface BenchFile {
  date: string
  node: string
  platform: string
  cpus: string
  memoryGiB: number
  figures: BenchFigure[]
}

const START = '<!-- bench-table:start -->'
const END = '<!-- bench-table:end -->'

function range(xs: number[], digits: number): string {
  const lo = Math.min(...xs)
  const hi = Math.max(...xs)
  const f = (x: number) => (digits >= 0 ? x.toFixed(digits) : fmt(x))
  return lo === hi ? f(lo) : `${f(lo)}–${f(hi)}`
}

export function benchTable(files: BenchFile[]): string {
  const ids: string[] = []
  for (const f of files) for (const fig of f.figures) if (!ids.includes(fig.id)) ids.push(fig.id)
  const lines = [
    `Measured ${new Intl.ListFormat('en', { type: 'conjunction' }).format(files.map((f) => `${f.date.slice(0, 16).replace('T', ' ')} UTC`))}; ` +
      `${files[0]?.cpus ?? ''}, ${files[0]?.memoryGiB ?? '?'} GiB, ${files[0]?.platform ?? ''}, Node ${files[0]?.node ?? ''}.`,
    '',
    '| id | value | floor | ratio | goal |',
    '| --- | --- | --- | --- | --- |'
  ]
  for (const id of ids) {
    const figs = files.flatMap((f) => f.figures.filter((x) => x.id === id))
    const first = figs[0] as BenchFigure
    const unit = first.unit
    const value = `${range(
      figs.map((x) => x.value),
      -1
    )} ${unit}`
    const floors = figs.map((x) => x.floor).filter((x): x is number => x !== null)
    const ratios = figs.map((x) => x.ratio).filter((x): x is number => x !== null)
    const cmp = first.better === 'higher' ? '≥' : '≤'
    const onValue = first.floor !== null && first.goal !== null && first.unit === 'kB'
    const goal =
      first.goal === null ? '' : `${cmp} ${first.goal}${onValue || first.floor === null ? ` ${unit}` : '×'}`
    lines.push(
      `| \`${id}\` | ${value} | ${floors.length ? `${range(floors, -1)} ${unit}` : '—'} | ${
        ratios.length ? `${range(ratios, 2)}×` : '—'
      } | ${goal} |`
    )
  }
  return lines.join('\n')
}

function main(): void {
  const args = process.argv.slice(2)
  const readme = args.includes('--readme')
  const files = args
    .filter((a) => a !== '--readme')
    .map((f) => JSON.parse(readFileSync(f, 'utf8')) as BenchFile)
  if (!files.length) {
    console.error('usage: table.ts [--readme] FILE [FILE2]')
    process.exitCode = 2
    return
  }
  const table = benchTable(files)
  if (!readme) {
    console.log(table)
    return
  }
  const text = readFileSync('README.md', 'utf8')
  const a = text.indexOf(START)
  const b = text.indexOf(END)
  if (a < 0 || b < a) throw new Error(`README.md has no ${START} … ${END} section`)
  writeFileSync('README.md', `${text.slice(0, a + START.length)}\n\n${table}\n\n${text.slice(b)}`)
  console.log('README.md table updated')
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main()
