/**
 * `npm run bench`: every benchmark of the project. Each figure with an id is measured beside its
 * floor (the least work that could produce the same result, same dependencies, same run) and
 * printed with the ratio value / floor and its goal. No figure is asserted: the numbers are for
 * people, and for comparing runs over time.
 *
 * Needs the built renderer (`npx electron-vite build`, run first by the npm script) and, for the
 * renderer figures, Debian Chromium (CHROMIUM_PATH, default /usr/bin/chromium) and a keychain
 * session (see .ci/test.sh).
 *
 *   npm run bench -- [service] [cache] [main] [palette] [renderer] [--scale] [--json FILE]
 *
 * `--scale` adds the list, cache, main, palette and paging (paging.ts) figures at 1,000, 10,000 and 100,000 items
 * (`scale.<figure>.<count>`, and `scale.<figure>.growth`: cost per item at 100,000 over 10,000).
 * `--json FILE` writes every figure with an id as { id, value, unit, floor, ratio, better, goal };
 * `node --import tsx test/bench/table.ts FILE` turns that file into the README's table.
 */
import { cpus, totalmem } from 'node:os'
import { growthRows, printRows, writeFigures, type BenchRow } from './types'
import { runServiceBench } from './service'
import { runPagingBench } from './paging'
import { runCacheBench } from './cache'
import { runMainBench } from './main'
import { runRendererBench } from './renderer'
import { runPaletteBench } from './palette'

const SCALE = [1000, 10_000, 100_000]

const parts = {
  service: [
    'Embedded service vs bare node:http (loopback, keep-alive)',
    // With `scale`, also a list read a page at a time (paging.ts).
    async (scale: boolean) =>
      scale ? [...(await runServiceBench()), ...(await runPagingBench({ scale: SCALE }))] : runServiceBench()
  ],
  cache: [
    'Offline cache (SQLite, per profile+user)',
    (scale: boolean) => runCacheBench(scale ? { scale: SCALE } : {})
  ],
  main: [
    'Main process: list of agents through the core',
    (scale: boolean) => runMainBench(scale ? { scale: SCALE } : {})
  ],
  palette: [
    'Command palette: fuzzy ranking per keystroke',
    (scale: boolean) => runPaletteBench(scale ? { scale: SCALE } : {})
  ],
  renderer: [
    'Renderer (headless Chromium, built renderer via the web harness)',
    (scale: boolean) => runRendererBench(scale ? { scale: SCALE } : {})
  ]
} as const

function argValue(args: string[], flag: string): string | undefined {
  const i = args.indexOf(flag)
  return i >= 0 ? args[i + 1] : undefined
}

async function run(): Promise<void> {
  const args = process.argv.slice(2)
  const jsonFile = argValue(args, '--json')
  const scale = args.includes('--scale')
  const asked = args.filter((a, i) => !a.startsWith('-') && args[i - 1] !== '--json')
  const unknown = asked.filter((a) => !(a in parts))
  if (unknown.length) {
    console.error(`Unknown part(s): ${unknown.join(', ')}. Parts: ${Object.keys(parts).join(', ')}`)
    process.exitCode = 2
    return
  }
  const chosen = (asked.length ? asked : Object.keys(parts)) as (keyof typeof parts)[]
  const machine = {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
    memoryGiB: Math.round(totalmem() / 2 ** 30)
  }
  console.log(
    `Agent Desk benchmarks — ${machine.date}, Node ${machine.node}, ${machine.platform}, ${machine.cpus}`
  )
  const all: BenchRow[] = []
  for (const name of chosen) {
    const [title, fn] = parts[name]
    const t0 = performance.now()
    const rows = await fn(scale)
    printRows(title, rows)
    all.push(...rows)
    console.log(`(${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s)`)
  }
  const growth = growthRows(all)
  if (growth.length) {
    printRows('How cost grows', growth)
    all.push(...growth)
  }
  if (jsonFile) {
    writeFigures(jsonFile, all, machine)
    console.log(`\nFigures written to ${jsonFile}`)
  }
}

run().catch((e: unknown) => {
  console.error(e)
  process.exitCode = 1
})
