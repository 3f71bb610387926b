/**
 * `npm run bench`: every benchmark of the project, each figure printed with its reference (target
 * or measured baseline) and their ratio. No figure is asserted: the numbers are for people.
 *
 * Needs the built renderer (`npx electron-vite build`, run first by the npm script) and, for the
 * renderer figures, Debian Chromium (CHROMIUM_PATH, default /usr/bin/chromium) and a keychain
 * session (see .ci/test.sh; the script runs itself under one on Linux).
 *
 * Pick parts with arguments: `npm run bench -- service main` (service, cache, main, renderer).
 */
import { cpus } from 'node:os'
import { printRows } from './types'
import { runServiceBench } from './service'
import { runCacheBench } from './cache'
import { runMainBench } from './main'
import { runRendererBench } from './renderer'

const parts = {
  service: ['Embedded service vs bare node:http (loopback, keep-alive)', () => runServiceBench()],
  cache: ['Offline cache (SQLite, per profile+user)', () => runCacheBench()],
  main: ['Main process: list of agents through the core', () => runMainBench()],
  renderer: ['Renderer (headless Chromium, built renderer via the web harness)', () => runRendererBench()]
} as const

/**
 * A fixed piece of CPU work (JSON round trips of 2,000 agent-like records, median of 5), printed in
 * the header so that figures taken on different days or machines can be compared: absolute
 * milliseconds scale with it, the ratios printed beside each figure do not.
 */
function machineReferenceMs(): number {
  const rows = Array.from({ length: 2000 }, (_, i) => ({
    id: `a${i}`,
    name: `Agent ${i}`,
    type: i % 2 ? 'REACT' : 'CHATVENDOR',
    tags: [{ id: `t${i % 7}`, name: 'tag', color: '#AABBCC' }],
    createdAt: '2026-01-01T00:00:00.000000+00:00'
  }))
  const times: number[] = []
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now()
    for (let k = 0; k < 10; k++) JSON.parse(JSON.stringify(rows))
    times.push(performance.now() - t0)
  }
  return times.sort((a, b) => a - b)[2] as number
}

async function run(): Promise<void> {
  const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'))
  const unknown = asked.filter((a) => !(a in parts))
  if (unknown.length) {
    console.error(`Unknown part(s): ${unknown.join(', ')}. Parts: ${Object.keys(parts).join(', ')}`)
    process.exitCode = 2
    return
  }
  const chosen = (asked.length ? asked : Object.keys(parts)) as (keyof typeof parts)[]
  console.log(
    `Agent Desk benchmarks — ${new Date().toISOString()}, Node ${process.version}, ${process.platform}, ` +
      `${cpus().length} cores; machine speed reference ${machineReferenceMs().toFixed(0)} ms`
  )
  for (const name of chosen) {
    const [title, fn] = parts[name]
    const t0 = performance.now()
    printRows(title, await fn())
    console.log(`(${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s)`)
  }
}

run().catch((e: unknown) => {
  console.error(e)
  process.exitCode = 1
})
