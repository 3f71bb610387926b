/**
 * Lists from a server without paging (part of the main benchmark, main.ts). The origin service
 * answers a list whole, however long (decisions.md), so an account of 100,000 agents comes as one
 * answer of ~100 MB; the transport reads such an answer in steps (src/main/api/largeAnswer.ts).
 * An account already seeded is listed through `test/servers/unpagedProxy.ts` (the embedded service
 * with `skip`/`take` taken out of every query; in the service's process since 2026-11-28 20:50
 * UTC: before, it ran on main's thread, and its forwarding of each answer counted in main's
 * blocks) by a profile of its own: the first list (which fills that profile's cache) and `runs`
 * more, each watched for the longest block of main's event loop, beside the floor: a raw `fetch` +
 * `JSON.parse` of the same whole answer.
 */
import { type Blocked, blockNote, longestBlock, worse } from './blocks'
import type { Call } from './electronCalls'
import type { SeedResult } from './seed'
import { median, type BenchRow } from './types'

export interface UnpagedFigures {
  /** The longest block during the first list (cache filled) and the later ones. */
  block: Blocked
  firstBlock: Blocked
  /** Later lists, as the page gets them, ms. */
  ms: number[]
  /** The floor: raw fetch + JSON.parse of the same answer, ms (interleaved with `ms`). */
  raw: number[]
  bytes: number
}

export async function measureUnpaged(
  unpagedUrl: string,
  call: Call,
  seed: SeedResult,
  runs: number,
  gc: () => void
): Promise<UnpagedFigures> {
  await call('session.signOut', { clearCache: true }).catch(() => undefined)
  const profile = await call<{ id: string }>('profiles.save', {
    name: `Without paging ${seed.agents}`,
    baseUrl: unpagedUrl
  })
  await call('session.signIn', { profileId: profile.id, email: seed.email, password: seed.password })
  const list = async () => {
    const r = await call<{ data: unknown[]; source: string }>('agents.list', {})
    if (r.source !== 'network' || r.data.length !== seed.agents)
      throw new Error(`the list without paging gave ${r.data.length} of ${seed.agents} agents`)
  }
  let bytes = 0
  const raw = async () => {
    const res = await fetch(`${unpagedUrl}/api/v1/agents`, {
      headers: { Authorization: `Bearer ${seed.token}` }
    })
    const text = await res.text()
    bytes = Buffer.byteLength(text)
    return (JSON.parse(text) as { data: unknown[] }).data.length
  }
  gc()
  const [firstBlock] = await longestBlock(list)
  let block = firstBlock
  const ms: number[] = []
  const rawMs: number[] = []
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now()
    if ((await raw()) !== seed.agents) throw new Error('the raw list without paging is short')
    rawMs.push(performance.now() - t0)
    const [blocked, took] = await longestBlock(async () => {
      const t1 = performance.now()
      await list()
      return performance.now() - t1
    })
    ms.push(took)
    block = worse(block, blocked)
  }
  await call('session.signOut', { clearCache: true }).catch(() => undefined)
  return { block, firstBlock, ms, raw: rawMs, bytes }
}

/** The figures' rows: `<prefix>.list` beside its floor, `<prefix>.block` (goal ≤ 50 ms). */
export function unpagedRows(n: number, u: UnpagedFigures, ids: { list: string; block: string }): BenchRow[] {
  return [
    {
      id: ids.list,
      name: `main GET /agents of ${n} from a server without paging (one answer)`,
      value: median(u.ms),
      unit: 'ms',
      floor: median(u.raw),
      goal: 1.3,
      note: `floor: raw fetch + JSON.parse of the same answer, ${(u.bytes / 1e6).toFixed(1)} MB; runs ${u.ms.map((x) => x.toFixed(0)).join('/')}`
    },
    {
      id: ids.block,
      name: `  longest block of main during those lists (the first or a later one)`,
      value: u.block.block,
      unit: 'ms',
      goal: 50,
      note: `first list (cache filled): ${u.firstBlock.block.toFixed(0)} ms; ${blockNote(u.block)}`
    }
  ]
}
