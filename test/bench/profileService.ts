/**
 * Profiling aid for the embedded service (not part of `npm run bench`):
 *   node --import tsx test/bench/profileService.ts [get|post|both] [requests]
 * starts the service in a child process the way the service bench does, under `--cpu-prof`
 * (profile written to ./service-profile/), and drives it from this process over 50 keep-alive
 * connections. Open the .cpuprofile in Chrome DevTools or summarise it with
 * `node --import tsx test/bench/profileService.ts summary <file.cpuprofile>`.
 */
import { fork } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startService } from '../../src/service/index'

const CHILD = '--profile-service-child'

async function child() {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-desk-prof-'))
  const service = await startService({ dataDir, port: 0, logger: () => {}, scryptCost: 1024 })
  process.send?.(service.url)
  process.on('disconnect', () => {
    void service.close().then(() => {
      rmSync(dataDir, { recursive: true, force: true })
      process.exit(0)
    })
  })
}

function once(agent: Agent, url: URL, method: string, headers: Record<string, string>, body?: string) {
  return new Promise<number>((res, rej) => {
    const req = request(
      { agent, host: url.hostname, port: url.port, path: url.pathname, method, headers },
      (r) => {
        r.on('data', () => {})
        r.on('end', () => res(r.statusCode ?? 0))
      }
    )
    req.on('error', rej)
    req.end(body)
  })
}

async function load(n: number, fn: () => Promise<number>) {
  let left = n
  let bad = 0
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (left-- > 0) if ((await fn()) >= 300) bad++
    })
  )
  const s = (performance.now() - t0) / 1000
  return `${n} in ${s.toFixed(2)} s = ${(n / s).toFixed(0)} req/s${bad ? `, ${bad} non-2xx` : ''}`
}

async function parent(mode: string, n: number) {
  const outDir = resolve('service-profile')
  const c = fork(fileURLToPath(import.meta.url), [CHILD], {
    execArgv: ['--import', 'tsx', '--cpu-prof', `--cpu-prof-dir=${outDir}`],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc']
  })
  const base = await new Promise<string>((r) => c.once('message', (m) => r(m as string)))
  const api = `${base}/api/v1`
  const post = async (path: string, body: unknown, token?: string) => {
    const r = await fetch(`${api}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body)
    })
    return ((await r.json()) as { data: Record<string, unknown> }).data
  }
  const s = (await post('/auth/sign-up', {
    email: 'p@example.com',
    password: 'profile-pass',
    name: 'P'
  })) as {
    token: string
    user: { id: string }
  }
  const tags = [
    await post('/tags', { name: 'fast', color: '#0E8A16', userId: s.user.id }, s.token),
    await post('/tags', { name: 'bench', color: '#abc', userId: s.user.id }, s.token)
  ]
  const agentBody = JSON.stringify({
    name: 'Bench agent',
    type: 'REACT',
    llm: { provider: 'openai', model: 'gpt-4o' },
    hasMemory: true,
    tags: tags.map((t) => t.id)
  })
  const a = await post('/agents', JSON.parse(agentBody), s.token)
  const agent = new Agent({ keepAlive: true, maxSockets: 50 })
  const auth = { authorization: `Bearer ${s.token}` }
  if (mode === 'get' || mode === 'both') {
    const u = new URL(`${api}/agents/${String(a.id)}`)
    console.log('GET ', await load(n, () => once(agent, u, 'GET', auth)))
  }
  if (mode === 'post' || mode === 'both') {
    const u = new URL(`${api}/agents`)
    const h = { ...auth, 'content-type': 'application/json', 'content-length': String(agentBody.length) }
    console.log('POST', await load(n, () => once(agent, u, 'POST', h, agentBody)))
  }
  agent.destroy()
  c.disconnect()
  await new Promise((r) => c.once('exit', r))
  console.log(`profile in ${outDir}`)
}

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}

/** Self time and total (inclusive) time per function, top 40 of each. */
function summary(file: string) {
  const p = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[]
    samples: number[]
    timeDeltas: number[]
  }
  const byId = new Map(p.nodes.map((x) => [x.id, x]))
  const parentOf = new Map<number, number>()
  for (const x of p.nodes) for (const ch of x.children ?? []) parentOf.set(ch, x.id)
  const label = (x: ProfileNode) =>
    `${x.callFrame.functionName || '(anon)'} ${x.callFrame.url.replace(/^.*\/(src|node_modules)\//, '$1/')}:${x.callFrame.lineNumber + 1}`
  const self = new Map<string, number>()
  const total = new Map<string, number>()
  let all = 0
  p.samples.forEach((id, i) => {
    const dt = p.timeDeltas[i] ?? 0
    all += dt
    const n = byId.get(id)
    if (!n) return
    self.set(label(n), (self.get(label(n)) ?? 0) + dt)
    const seen = new Set<string>()
    for (let cur: number | undefined = id; cur !== undefined; cur = parentOf.get(cur)) {
      const l = label(byId.get(cur) as ProfileNode)
      if (seen.has(l)) continue
      seen.add(l)
      total.set(l, (total.get(l) ?? 0) + dt)
    }
  })
  const show = (title: string, m: Map<string, number>) => {
    console.log(`\n${title}`)
    for (const [k, v] of [...m].sort((x, y) => y[1] - x[1]).slice(0, 40))
      console.log(`${((v / all) * 100).toFixed(1).padStart(5)}%  ${k}`)
  }
  show('self', self)
  show('total', total)
}

if (process.argv.includes(CHILD)) void child()
else if (process.argv[2] === 'summary') summary(process.argv[3] as string)
else void parent(process.argv[2] ?? 'both', Number(process.argv[3] ?? 20000))
