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
      `${cpus().length} cores`
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
