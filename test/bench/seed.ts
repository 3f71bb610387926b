/**
 * Benchmark data: an embedded service in a child process (its own event loop, as a real server
 * would be) and a generator that creates a user (sign-up), tags, agents, documents and tools
 * through the service's HTTP API on 127.0.0.1, with bounded concurrency.
 *
 * Reused by the main-side and renderer benchmarks (`startBenchService`, `seedAccount`).
 * Run alone: `node --import tsx test/bench/seed.ts` (seeds 10,000 agents and prints the timings).
 */
import { fork, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { Agent as HttpAgent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AGENT_TYPES, DOCUMENT_TYPES, TOOL_TYPES } from '../../src/shared/common'
import { startService } from '../../src/service/index'
import { startUnpagedProxy } from '../servers/unpagedProxy'

const CHILD_FLAG = '--bench-seed-service-child'

export interface BenchService {
  /** Base URL without /api/v1, on 127.0.0.1. */
  url: string
  /**
   * The same service as a server without paging (test/servers/unpagedProxy.ts), in the service's
   * process: a remote server's work, the forwarding of a 100-MB answer included, is not main's.
   */
  unpagedUrl: string
  /** The same front again, its answers relayed at LINK_BYTES_PER_SECOND (a remote server). */
  linkUrl: string
  stop(): Promise<void>
}

/**
 * The speed of the link to a remote server (`linkUrl`): 25 MB/s, ~200 Mbit/s. Over it, main waits
 * for the bytes, where the page can parse what came (a list leaves main as it comes).
 */
export const LINK_BYTES_PER_SECOND = 25e6

/** Child process: one embedded service in a temp data dir (and its unpaged front), until the parent disconnects. */
async function runChild(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-desk-bench-seed-'))
  const service = await startService({ dataDir, port: 0, scryptCost: 1024, logger: () => {} })
  const unpaged = await startUnpagedProxy(service.url)
  const link = await startUnpagedProxy(service.url, { bytesPerSecond: LINK_BYTES_PER_SECOND })
  process.send?.({ url: service.url, unpagedUrl: unpaged.url, linkUrl: link.url })
  const stop = async () => {
    await link.close()
    await unpaged.close()
    await service.close()
    rmSync(dataDir, { recursive: true, force: true })
    process.exit(0)
  }
  process.on('disconnect', () => void stop())
  process.on('SIGTERM', () => void stop())
}

/** Starts the embedded service in a child process (fresh temp data dir, removed at stop). */
export async function startBenchService(): Promise<BenchService> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [CHILD_FLAG], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc']
  })
  type Urls = { url: string; unpagedUrl: string; linkUrl: string }
  const { url, unpagedUrl, linkUrl } = await new Promise<Urls>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Urls))
    child.once('exit', (code) => reject(new Error(`bench service exited early (${code})`)))
  })
  return {
    url,
    unpagedUrl,
    linkUrl,
    async stop() {
      if (child.exitCode !== null) return
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      child.disconnect()
      await exited
    }
  }
}

export interface SeedOptions {
  agents?: number
  documents?: number
  tools?: number
  /** Tags of the user; agents carry 0–3 of them. Default 8. */
  tags?: number
  /** Requests in flight at once. Default 16. */
  concurrency?: number
  email?: string
  password?: string
  /** Seed this signed-in account instead of signing up a new one (e.g. the Local workspace's). */
  session?: { token: string; userId: string }
}

export interface SeedResult {
  baseUrl: string
  email: string
  password: string
  token: string
  userId: string
  tagIds: string[]
  agents: number
  documents: number
  tools: number
  /** Wall time of the seeding, ms. */
  ms: number
}

const keepAlive = new HttpAgent({ keepAlive: true, maxSockets: 64 })

/** One JSON request over a kept-alive loopback connection; returns `data` of a success envelope. */
export function apiCall(method: string, url: string, body?: unknown, token?: string): Promise<unknown> {
  const u = new URL(url)
  const payload = body === undefined ? undefined : JSON.stringify(body)
  const headers: Record<string, string> = {}
  if (payload !== undefined) {
    headers['content-type'] = 'application/json'
    headers['content-length'] = String(Buffer.byteLength(payload))
  }
  if (token) headers.authorization = `Bearer ${token}`
  return new Promise((resolve, reject) => {
    const req = request(
      { agent: keepAlive, host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('error', reject)
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          try {
            const parsed = JSON.parse(text) as { success?: boolean; data?: unknown }
            if ((res.statusCode ?? 0) >= 300 || parsed.success !== true) {
              reject(new Error(`${method} ${u.pathname} answered ${res.statusCode}: ${text.slice(0, 200)}`))
            } else resolve(parsed.data)
          } catch {
            reject(new Error(`${method} ${u.pathname} answered ${res.statusCode} (not JSON)`))
          }
        })
      }
    )
    req.on('error', reject)
    req.end(payload)
  })
}

/** Runs `count` tasks with at most `concurrency` in flight; fails on the first error. */
async function pool(
  count: number,
  concurrency: number,
  task: (i: number) => Promise<unknown>
): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++
        await task(i)
      }
    })
  )
}

const WORDS = ['Support', 'Sales', 'Research', 'Billing', 'Triage', 'Onboarding', 'Audit', 'Scout', 'Helper']

/** A user (sign-up) with tags, agents, documents and tools, all created through the HTTP API. */
export async function seedAccount(baseUrl: string, opts: SeedOptions = {}): Promise<SeedResult> {
  const t0 = performance.now()
  const api = `${baseUrl}/api/v1`
  const email = opts.email ?? `bench.${Date.now()}@example.com`
  const password = opts.password ?? 'bench-password-123'
  const concurrency = opts.concurrency ?? 16
  let session = opts.session
  if (!session) {
    const s = (await apiCall('POST', `${api}/auth/sign-up`, { email, password, name: 'Bench User' })) as {
      token: string
      user: { id: string }
    }
    session = { token: s.token, userId: s.user.id }
  }
  const { token, userId } = session
  const tagIds: string[] = []
  const palette = ['#0E8A16', '#1D76DB', '#B60205', '#FBCA04', '#5319E7', '#006B75', '#D93F0B', '#C5DEF5']
  for (let i = 0; i < (opts.tags ?? 8); i++) {
    const tag = (await apiCall(
      'POST',
      `${api}/tags`,
      { name: `tag-${i}`, color: palette[i % palette.length], userId },
      token
    )) as { id: string }
    tagIds.push(tag.id)
  }
  const agents = opts.agents ?? 0
  const documents = opts.documents ?? 0
  const tools = opts.tools ?? 0
  await pool(agents, concurrency, (i) => {
    const tags = tagIds.length
      ? [0, 1, 2].slice(0, i % 4).map((k) => tagIds[(i + k * 3) % tagIds.length])
      : []
    return apiCall(
      'POST',
      `${api}/agents`,
      {
        name: `${WORDS[i % WORDS.length]} agent ${i}`,
        type: AGENT_TYPES[i % AGENT_TYPES.length],
        llm: { provider: 'openai', model: i % 2 ? 'gpt-4o' : 'gpt-4o-mini' },
        hasMemory: i % 3 === 0,
        tags: [...new Set(tags)]
      },
      token
    )
  })
  await pool(documents, concurrency, (i) =>
    apiCall(
      'POST',
      `${api}/documents`,
      {
        name: `${WORDS[i % WORDS.length]} handbook ${i}`,
        type: DOCUMENT_TYPES[i % DOCUMENT_TYPES.length],
        url: `https://example.com/docs/${i}`
      },
      token
    )
  )
  await pool(tools, concurrency, (i) =>
    apiCall(
      'POST',
      `${api}/tools`,
      {
        name: `${WORDS[i % WORDS.length]} tool ${i}`,
        type: TOOL_TYPES[i % TOOL_TYPES.length],
        description: `Benchmark tool number ${i}`
      },
      token
    )
  )
  return {
    baseUrl,
    email,
    password,
    token,
    userId,
    tagIds,
    agents,
    documents,
    tools,
    ms: performance.now() - t0
  }
}

/** Releases the kept-alive sockets of apiCall (lets the process exit). */
/** The account's agents as the service lists them, asked with a `take` that holds them all. */
export async function servedAgents(baseUrl: string, token: string): Promise<{ id: string; name: string }[]> {
  const res = await fetch(`${baseUrl}/api/v1/agents?take=10000`, {
    headers: { Authorization: `Bearer ${token}` }
  })
  return ((await res.json()) as { data: { id: string; name: string }[] }).data
}

export function closeSeedConnections(): void {
  keepAlive.destroy()
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]
if (process.argv.includes(CHILD_FLAG)) {
  void runChild()
} else if (isMain) {
  void (async () => {
    const service = await startBenchService()
    try {
      const r = await seedAccount(service.url, { agents: 10_000, documents: 1000, tools: 1000 })
      console.log(
        `seeded ${r.agents} agents, ${r.documents} documents, ${r.tools} tools in ${(r.ms / 1000).toFixed(1)} s`
      )
    } finally {
      closeSeedConnections()
      await service.stop()
    }
  })().catch((e: unknown) => {
    console.error(e)
    process.exitCode = 1
  })
}
