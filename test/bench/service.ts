/**
 * Benchmark of the embedded service against a bare node:http server (`npm run bench:service`).
 *
 * The servers run in a child process (the service in a temp data dir, plus a bare server that
 * answers the bytes the service answers the same GET, and one that INSERTs each POSTed body on the same SQLite driver with
 * the same durability settings); this process drives 50 keep-alive connections over loopback, so
 * client and server do not share an event loop. Each scenario is bounded by a request count
 * and a time limit, and runs in rounds that alternate with its floor's. Prints requests/s, p50 and p99, and the service's ratio to its floor
 * (reads: the fixed-answer server, goal ≥ 0.9; writes: the INSERT server, goal ≥ 0.8). Both floors
 * get the same requests as the service, headers included (the bearer token, which they ignore).
 */
import { fork } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { Agent, createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'libsql'
import { startService } from '../../src/service/index'
import { runAsScript, type BenchRow } from './types'

export interface ServiceBenchOptions {
  /** Requests per read scenario (after warm-up; writes get half). Default 40,000. */
  requests?: number
  /** Time limit per scenario in seconds. Default 8. */
  seconds?: number
  /** Concurrent keep-alive connections. Default 50. */
  concurrency?: number
  /**
   * Rounds per floor / service pair, alternating which goes first (F S, S F, …), each with its
   * share of the requests and time. The machine's speed swings within seconds, so a floor
   * measured long before (or after) the service would skew the ratio; rounds of 0.3–0.5 s swung
   * 1.5× between neighbours, so there are many of them. Default 8.
   */
  rounds?: number
}

interface ChildReady {
  serviceUrl: string
  bareUrl: string
  /** Bare node:http doing one INSERT per POST on the same driver and durability settings. */
  insertUrl: string
}

/**
 * The write floor: node:http reading a JSON body, one INSERT of it on libsql with the service's
 * pragmas (WAL, synchronous NORMAL, one autocommit transaction per request), answering the row.
 */
function bareInsertServer(dataDir: string): Server {
  const db = new Database(join(dataDir, 'floor.db'))
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = NORMAL')
  db.exec(
    'CREATE TABLE IF NOT EXISTS rows (id TEXT PRIMARY KEY, json TEXT NOT NULL, created_at TEXT NOT NULL)'
  )
  const insert = db.prepare('INSERT INTO rows (id, json, created_at) VALUES (?, ?, ?)')
  return createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>
      const row = { ...body, id: randomUUID(), createdAt: new Date().toISOString() }
      insert.run(row.id, JSON.stringify(body), row.createdAt)
      const out = JSON.stringify({ success: true, data: row })
      res.writeHead(201, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(out)
      })
      res.end(out)
    })
  })
}

const listen = async (server: Server): Promise<string> => {
  server.keepAliveTimeout = 30_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const CHILD_FLAG = '--bench-service-child'

/** Child process: the service and the bare server, until the parent disconnects. */
async function runChild() {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-desk-bench-'))
  const service = await startService({ dataDir, port: 0, logger: () => {} })
  // The read floor answers the very bytes the service answers the GET it is compared with (the
  // parent sends them once it has made the agent): the same result, with none of the work.
  let fixed = JSON.stringify({ success: true, data: null })
  process.on('message', (m: { fixedBody?: string }) => {
    if (typeof m?.fixedBody !== 'string') return
    fixed = m.fixedBody
    process.send?.({ fixedSet: true })
  })
  const bare = createServer((req, res) => {
    req.resume()
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(fixed)
    })
    res.end(fixed)
  })
  const inserts = bareInsertServer(dataDir)
  const ready: ChildReady = {
    serviceUrl: service.url,
    bareUrl: await listen(bare),
    insertUrl: await listen(inserts)
  }
  process.send?.(ready)
  const stop = async () => {
    for (const s of [bare, inserts]) {
      s.closeAllConnections()
      s.close()
    }
    await service.close()
    rmSync(dataDir, { recursive: true, force: true })
    process.exit(0)
  }
  process.on('disconnect', () => void stop())
  process.on('SIGTERM', () => void stop())
}

interface Result {
  count: number
  seconds: number
  rps: number
  p50: number
  p99: number
  errors: number
  /** The latencies, sorted (for merging rounds). */
  sorted: Float64Array
}

interface Target {
  url: URL
  method: string
  headers: Record<string, string>
  body?: string
}

function once(agent: Agent, t: Target): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: t.url.hostname,
        port: t.url.port,
        path: t.url.pathname + t.url.search,
        method: t.method,
        headers: t.headers
      },
      (res) => {
        res.on('data', () => {})
        res.on('end', () => resolve(res.statusCode ?? 0))
        res.on('error', reject)
      }
    )
    req.on('error', reject)
    req.end(t.body)
  })
}

/** A target with its own keep-alive connections, warmed up once. */
interface Driver {
  target: Target
  agent: Agent
}

async function openDriver(t: Target, warmRequests: number, concurrency: number): Promise<Driver> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  // Warm-up: open the connections and let the JIT settle.
  let warm = warmRequests
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (warm-- > 0) await once(agent, t)
    })
  )
  return { target: t, agent }
}

async function measure(d: Driver, requests: number, seconds: number, concurrency: number): Promise<Result> {
  const latencies = new Float64Array(requests)
  let issued = 0
  let done = 0
  let errors = 0
  const start = performance.now()
  const deadline = start + seconds * 1000
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (issued < requests && performance.now() < deadline) {
        issued++
        const t0 = performance.now()
        const status = await once(d.agent, d.target)
        latencies[done++] = performance.now() - t0
        if (status < 200 || status >= 300) errors++
      }
    })
  )
  const elapsed = (performance.now() - start) / 1000
  const sorted = latencies.slice(0, done).sort()
  const pct = (p: number) => sorted[Math.min(done - 1, Math.floor((done * p) / 100))] ?? 0
  return { count: done, seconds: elapsed, rps: done / elapsed, p50: pct(50), p99: pct(99), errors, sorted }
}

/** Merges rounds: requests and time add up; percentiles over all latencies. */
function merge(parts: Result[]): Result {
  const count = parts.reduce((n, r) => n + r.count, 0)
  const seconds = parts.reduce((n, r) => n + r.seconds, 0)
  const all = new Float64Array(count)
  let at = 0
  for (const r of parts) {
    all.set(r.sorted, at)
    at += r.sorted.length
  }
  all.sort()
  const pct = (p: number) => all[Math.min(count - 1, Math.floor((count * p) / 100))] ?? 0
  const errors = parts.reduce((n, r) => n + r.errors, 0)
  return { count, seconds, rps: count / seconds, p50: pct(50), p99: pct(99), errors, sorted: all }
}

/** The floor and the service, in alternating rounds (see ServiceBenchOptions.rounds). */
async function versus(
  floor: Target,
  service: Target,
  requests: number,
  seconds: number,
  concurrency: number,
  rounds: number
): Promise<{ floor: Result; service: Result }> {
  // The service's code paths take longer to settle in the JIT than the floor's: with 2,000
  // warm-up requests its first round still ran 10–35% below its later ones, the floor's not.
  const warm = Math.min(5000, Math.ceil(requests / 4))
  const drivers = [await openDriver(floor, warm, concurrency), await openDriver(service, warm, concurrency)]
  const results: Result[][] = [[], []]
  try {
    for (let r = 0; r < rounds; r++) {
      for (const i of r % 2 === 0 ? [0, 1] : [1, 0]) {
        const d = drivers[i] as Driver
        results[i]?.push(await measure(d, Math.ceil(requests / rounds), seconds / rounds, concurrency))
      }
    }
  } finally {
    for (const d of drivers) d.agent.destroy()
  }
  return { floor: merge(results[0] ?? []), service: merge(results[1] ?? []) }
}

async function json(method: string, url: string, body?: unknown, token?: string): Promise<unknown> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (token) headers.Authorization = `Bearer ${token}`
  const res = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const parsed = (await res.json()) as { success?: boolean; data?: unknown }
  if (!res.ok || parsed.success !== true) throw new Error(`${method} ${url} failed: ${res.status}`)
  return parsed.data
}

/** Runs the benchmark and returns the figures (servers in a child process, torn down after). */
export async function runServiceBench(opts: ServiceBenchOptions = {}): Promise<BenchRow[]> {
  const requests = opts.requests ?? 40_000
  const seconds = opts.seconds ?? 8
  const concurrency = opts.concurrency ?? 50
  const rounds = Math.max(1, Math.floor(opts.rounds ?? 8))
  const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc']
  })
  try {
    const ready = await new Promise<ChildReady>((resolve, reject) => {
      child.once('message', (m) => resolve(m as ChildReady))
      child.once('exit', (code) => reject(new Error(`bench server exited early (${code})`)))
    })
    const api = `${ready.serviceUrl}/api/v1`
    const session = (await json('POST', `${api}/auth/sign-up`, {
      email: 'bench@example.com',
      password: 'bench-password',
      name: 'Bench'
    })) as { token: string; user: { id: string } }
    const token = session.token
    const tagIds: string[] = []
    for (const [name, color] of [
      ['fast', '#0E8A16'],
      ['bench', '#abc']
    ]) {
      const tag = (await json('POST', `${api}/tags`, { name, color, userId: session.user.id }, token)) as {
        id: string
      }
      tagIds.push(tag.id)
    }
    const agentBody = {
      name: 'Bench agent',
      type: 'REACT',
      llm: { provider: 'openai', model: 'gpt-4o' },
      hasMemory: true,
      tags: tagIds
    }
    const agent = (await json('POST', `${api}/agents`, agentBody, token)) as { id: string }
    const auth = { Authorization: `Bearer ${token}` }
    const answer = await (await fetch(`${api}/agents/${agent.id}`, { headers: auth })).text()
    await new Promise<void>((resolve) => {
      child.once('message', () => resolve())
      child.send({ fixedBody: answer })
    })

    const reads = await versus(
      { url: new URL(`${ready.bareUrl}/`), method: 'GET', headers: auth },
      { url: new URL(`${api}/agents/${agent.id}`), method: 'GET', headers: auth },
      requests,
      seconds,
      concurrency,
      rounds
    )
    const postBody = JSON.stringify(agentBody)
    const postHeaders = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(postBody))
    }
    const writes = await versus(
      {
        url: new URL(`${ready.insertUrl}/`),
        method: 'POST',
        headers: { ...auth, ...postHeaders },
        body: postBody
      },
      {
        url: new URL(`${api}/agents`),
        method: 'POST',
        headers: { ...auth, ...postHeaders },
        body: postBody
      },
      Math.ceil(requests / 2),
      seconds,
      concurrency,
      rounds
    )
    const [bare, get, insertFloor, post] = [reads.floor, reads.service, writes.floor, writes.service]

    // A long list: everything POST created (at least 10,000 agents).
    let total = (await json('GET', `${api}/agents`, undefined, token)) as unknown[]
    while (total.length < 10_000) {
      await Promise.all(Array.from({ length: 50 }, () => json('POST', `${api}/agents`, agentBody, token)))
      total = (await json('GET', `${api}/agents`, undefined, token)) as unknown[]
    }
    const listBytes = Buffer.byteLength(JSON.stringify({ success: true, data: total }))
    // Time to the last byte (the client does not parse the body, so this is the service's time).
    const listAgent = new Agent({ keepAlive: true, maxSockets: 1 })
    const listTarget: Target = { url: new URL(`${api}/agents`), method: 'GET', headers: auth }
    const listTimes: number[] = []
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now()
      const status = await once(listAgent, listTarget)
      if (status !== 200) throw new Error(`GET /agents answered ${status}`)
      listTimes.push(performance.now() - t0)
    }
    listAgent.destroy()
    listTimes.sort((a, b) => a - b)

    const rows: BenchRow[] = []
    const add = (label: string, r: Result, ref?: { floor: Result; id: string; goal: number }) => {
      rows.push({
        name: `${label} throughput`,
        value: r.rps,
        unit: 'req/s',
        better: 'higher',
        ...(ref ? { id: ref.id, floor: ref.floor.rps, goal: ref.goal } : {}),
        note: `${r.count} requests in ${r.seconds.toFixed(1)} s, ${concurrency} connections, ${rounds} rounds${r.errors ? `, ${r.errors} non-2xx` : ''}`
      })
      rows.push({ name: `${label} p50 latency`, value: r.p50, unit: 'ms' })
      rows.push({ name: `${label} p99 latency`, value: r.p99, unit: 'ms' })
    }
    add('floor: bare node:http GET (the same answer, fixed)', bare)
    add('service GET /agents/{id} (authenticated)', get, { floor: bare, id: 'service.get', goal: 0.9 })
    add('floor: bare node:http POST, one INSERT each (same driver, pragmas)', insertFloor)
    add('service POST /agents (authenticated)', post, { floor: insertFloor, id: 'service.post', goal: 0.8 })
    rows.push({
      name: `service GET /agents with ${total.length} agents (median of 5)`,
      value: listTimes[2] ?? 0,
      unit: 'ms',
      note: `${(listBytes / 1e6).toFixed(1)} MB response, time to last byte`
    })
    return rows
  } finally {
    child.disconnect()
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) resolve()
      else child.once('exit', () => resolve())
    })
  }
}

if (process.argv.includes(CHILD_FLAG)) void runChild()
else
  runAsScript(import.meta.url, 'Embedded service vs bare node:http (loopback, keep-alive)', () =>
    runServiceBench()
  )
