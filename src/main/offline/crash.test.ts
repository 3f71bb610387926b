/**
 * Crash tests: the main-process core runs in a child process (test/support/coreChild.ts) and is
 * killed with SIGKILL at an exact point: in the middle of an outbox replay against the embedded
 * service, and inside the transaction of a 10,000-item cache write. A new process on the same data
 * folder must then finish the work with nothing lost and nothing duplicated, and read back either
 * the old list or the new one, never a damaged or half-written one.
 */
import { rmSync } from 'node:fs'
import Database from 'libsql'
import { afterEach, describe, expect, it } from 'vitest'
import { startService } from '../../service'
import type { Agent } from '../../shared/agent'
import { offlineStorePath } from './index'
import { startGateProxy, type GateProxy, type GateRequest } from '../../../test/servers/gateProxy'
import { startCoreProcess, type CoreProcess } from '../../../test/support/coreProcess'
import { tempDir, waitFor } from '../../../test/support/mainCore'
import { call } from '../../../test/support/serviceKit'

const cleanup: (() => Promise<void> | void)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

const PASSWORD = 'password-crash-1'
const QUEUED = 30
const llm = { provider: 'openai', model: 'gpt-4o' }
const agentName = (i: number) => `Crash agent ${String(i).padStart(2, '0')}`

interface World {
  svcBase: string
  gate: GateProxy
  dataDir: string
  keychain: Map<string, string>
  start(): Promise<CoreProcess>
}

async function world(): Promise<World> {
  const svcData = tempDir('agent-desk-crash-svc-')
  const svc = await startService({ dataDir: svcData, port: 0, scryptCost: 16, logger: () => undefined })
  const gate = await startGateProxy(svc.url)
  const dataDir = tempDir('agent-desk-crash-app-')
  const keychain = new Map<string, string>()
  cleanup.push(async () => {
    await gate.close()
    await svc.close()
    rmSync(svcData, { recursive: true, force: true })
    rmSync(dataDir, { recursive: true, force: true })
  })
  return {
    svcBase: `${svc.url}/api/v1`,
    gate,
    dataDir,
    keychain,
    async start() {
      const p = await startCoreProcess(dataDir, keychain)
      cleanup.push(() => p.kill())
      return p
    }
  }
}

/** Signs a fresh user up through the core; returns the profile, the user id and the e-mail. */
async function signUp(p: CoreProcess, w: World) {
  const profile = await p.call('profiles.save', { name: 'Crash', baseUrl: w.gate.url })
  const email = `crash-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`
  const state = await p.call('session.signUp', {
    profileId: profile.id,
    email,
    password: PASSWORD,
    name: 'Crash'
  })
  const userId = state.user?.id ?? ''
  expect(userId).not.toBe('')
  return { profileId: profile.id, userId, email }
}

/** The user's agents as the service holds them (straight from the service, not through the app). */
async function serverAgents(w: World, email: string): Promise<Agent[]> {
  const signIn = await call(w.svcBase, 'POST', '/auth/sign-in', { body: { email, password: PASSWORD } })
  const token = (signIn.data as { token: string }).token
  const r = await call(w.svcBase, 'GET', '/agents', { token, header: 'Authorization' })
  expect(r.status).toBe(200)
  return r.data as Agent[]
}

const isAgentPost = (r: GateRequest) => r.method === 'POST' && r.path === '/api/v1/agents'

function outboxRows(file: string): { status: string }[] {
  const db = new Database(file, { readonly: true })
  try {
    return db.prepare('SELECT status FROM outbox ORDER BY seq').all() as { status: string }[]
  } finally {
    db.close()
  }
}

describe('SIGKILL in the middle of an outbox replay', () => {
  /**
   * `when`: kill as the K-th create reaches the proxy, before the service sees it ('before'), or
   * after the service stored it and before its answer reaches the app ('after': the app cannot
   * know it was stored; only an Idempotency-Key the service honours keeps it from a second copy).
   */
  async function queueReplayKillRestart(when: 'before' | 'after', k: number) {
    const w = await world()
    const first = await w.start()
    const { profileId, userId, email } = await signUp(first, w)

    // The server goes away; every create waits in the outbox.
    w.gate.mode = 'down'
    for (let i = 1; i <= QUEUED; i++) {
      const r = await first.call('agents.create', { name: agentName(i), type: 'REACT', llm })
      expect(r.status).toBe('queued')
    }
    expect(await first.call('outbox.list')).toHaveLength(QUEUED)

    // It comes back; the replay starts by itself. The K-th create is where the app dies.
    let killed = false
    const kill = async (r: GateRequest) => {
      if (killed || !isAgentPost(r) || w.gate.requests.filter(isAgentPost).length < k) return false
      killed = true
      await first.kill()
      return true
    }
    if (when === 'before') w.gate.before = async (r) => ((await kill(r)) ? 'drop' : 'forward')
    else w.gate.after = async (r) => ((await kill(r)) ? 'drop' : 'relay')
    w.gate.mode = 'pass'
    const exit = await first.exited
    expect(exit.signal).toBe('SIGKILL')
    w.gate.before = undefined
    w.gate.after = undefined

    // What the crash left: the service has the first K-1 (or K) creates, the outbox the rest.
    const stored = when === 'before' ? k - 1 : k
    expect((await serverAgents(w, email)).map((a) => a.name).sort()).toEqual(
      Array.from({ length: stored }, (_, i) => agentName(i + 1))
    )
    const rows = outboxRows(offlineStorePath(w.dataDir, profileId, userId))
    expect(rows).toHaveLength(QUEUED - k + 1)
    expect(rows[0]?.status).toBe('replaying')

    // A new process on the same folder finishes the replay.
    const second = await w.start()
    await waitFor(async () => (await second.call('outbox.list')).length === 0, 90_000)

    const expected = Array.from({ length: QUEUED }, (_, i) => agentName(i + 1))
    // Every queued create exists exactly once on the server…
    expect((await serverAgents(w, email)).map((a) => a.name).sort()).toEqual(expected)
    // …and in the app, under the server's ids.
    const listed = await second.call('agents.list')
    expect(listed.source).toBe('network')
    expect(listed.data.map((a) => a.name).sort()).toEqual(expected)
    expect(listed.data.filter((a) => a.id.startsWith('local-'))).toEqual([])
    await second.stop()
  }

  it('before the K-th create reaches the service: the rest is sent once after a restart', async () => {
    await queueReplayKillRestart('before', 12)
  }, 180_000)

  it('after the service stored the K-th create, before the app heard back: still exactly one copy', async () => {
    await queueReplayKillRestart('after', 12)
  }, 180_000)
})

describe('SIGKILL inside a 10,000-item cache write', () => {
  const SIZE = 10_000

  /** 10,000 agents shaped like the template; `version` 2 shares half its ids with version 1. */
  function bigList(template: Agent, version: 1 | 2): Agent[] {
    const offset = version === 1 ? 0 : SIZE / 2
    return Array.from({ length: SIZE }, (_, i) => {
      const n = i + offset
      return {
        ...template,
        id: `c${String(n).padStart(24, '0')}`,
        name: `v${version} agent ${n}`
      }
    })
  }

  it('at any point of the write (new rows, staged membership, the last step): the old list comes back whole', async () => {
    const w = await world()
    let app = await w.start()
    const { profileId, userId } = await signUp(app, w)
    const made = await app.call('agents.create', { name: 'Template', type: 'REACT', llm })
    expect(made.status).toBe('done')

    // The server lists version 1; the app caches it (one committed write).
    const v1 = bigList(made.data, 1)
    const v2 = bigList(made.data, 2)
    let serving: Agent[] = v1
    w.gate.before = (r) =>
      r.method === 'GET' && r.path === '/api/v1/agents'
        ? { status: 200, json: { success: true, data: serving } }
        : 'forward'
    const read1 = await app.call('agents.list')
    expect(read1.data).toHaveLength(SIZE)
    expect(read1.syncedAt).not.toBeNull()
    const file = offlineStorePath(w.dataDir, profileId, userId)

    // Version 2 arrives; the app dies while storing it (listWrite.ts), three times. Each run
    // writes the rows of the items new to the cache (one run each, committed 500 at a time),
    // stages the new membership (one run per 500 ids, committed), then in one transaction
    // rewrites the 5,000 items version 1 held and points the list at its new membership:
    // 1. at run 4,000: among the 5,000 new rows (3,500 of them committed);
    // 2. at run 1,510: the other 1,500 new rows written, inside the tenth step of the membership;
    // 3. at run 3,000: every new row stored, the membership staged, inside the last transaction.
    serving = v2
    for (const runs of [4_000, 1_510, 3_000]) {
      const frozen = app.freezeAfterRuns(runs)
      void app.invoke('agents.list').catch(() => undefined)
      await frozen
      await app.kill()

      // The file is sound SQLite after the crash.
      const db = new Database(file)
      expect(db.prepare('PRAGMA integrity_check').raw(true).all()).toEqual([['ok']])
      db.close()

      // A new process reads the cached list: exactly version 1 as it was synced (version 2 never
      // committed), never a mixture claimed complete.
      app = await w.start()
      const cached = await app.call('agents.list', { cacheOnly: true })
      expect(cached.source).toBe('cache')
      expect(cached.syncedAt).toBe(read1.syncedAt)
      expect(cached.data.map((a) => [a.id, a.name])).toEqual(v1.map((a) => [a.id, a.name]))
    }

    // Left alone, version 2 is stored whole.
    const read2 = await app.call('agents.list')
    expect(read2.source).toBe('network')
    const again = await app.call('agents.list', { cacheOnly: true })
    expect(again.syncedAt).toBe(read2.syncedAt)
    expect(again.data.map((a) => [a.id, a.name])).toEqual(v2.map((a) => [a.id, a.name]))
    await app.stop()
    // What the crashes left staged, and version 1's membership, are gone: one membership remains.
    const db = new Database(file)
    expect(db.prepare("SELECT COUNT(*) FROM list_items WHERE resource = 'agents'").raw(true).all()).toEqual([
      [SIZE]
    ])
    db.close()
  }, 300_000)
})
