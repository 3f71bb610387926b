/**
 * Lists from a server without paging (part of the main benchmark, main.ts). The origin service
 * answers a list whole, however long (decisions.md), so an account of 100,000 agents comes as one
 * answer of ~100 MB; the transport reads such an answer in steps (src/main/api/largeAnswer.ts).
 * An account already seeded is listed through `test/servers/unpagedProxy.ts` (the embedded service
 * with `skip`/`take` taken out of every query; in the service's process since 2026-11-28 20:50
 * UTC: before, it ran on main's thread, and its forwarding of each answer counted in main's
 * blocks) by a profile of its own: the first list (which fills that profile's cache) and `runs`
 * more, beside the floor: a raw `fetch` + `JSON.parse` of the same whole answer. Each run lists
 * twice, as `main.agents.list` and `main.agents.list.ipc` do: through the core as main hands the
 * list out (`direct`), and as the page gets it (`call`), watched for the longest block of main's
 * event loop. (Until 2026-11-29 the list figure was the page's: beside the paged list's, it
 * counted the page's reading of the answer too, ~30 ms at 1,000 agents, and seemed 1.5–1.9× its
 * floor there.)
 */
import { type Blocked, blockNote, longestBlock, worse } from './blocks'
import type { Call, PageCalls } from './electronCalls'
import type { SeedResult } from './seed'
import { median, type BenchRow } from './types'

export interface UnpagedFigures {
  /** The longest block during the first list (cache filled) and the later ones. */
  block: Blocked
  firstBlock: Blocked
  /** Later lists through the core (main's work), ms. */
  ms: number[]
  /** The same lists as the page gets them, ms. */
  ipc: number[]
  /** The floor: raw fetch + JSON.parse of the same answer, ms (interleaved with `ms`). */
  raw: number[]
  bytes: number
}

export async function measureUnpaged(
  unpagedUrl: string,
  { call, timed, direct }: { call: Call; timed: PageCalls['timed']; direct: Call },
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
  /** The list as the page gets it, and its time as the page took it (PageCalls.timed). */
  const list = async (): Promise<number> => {
    const { value: r, ms } = await timed<{ data: { length: number }; source: string }>('agents.list', {})
    if (r.source !== 'network' || r.data.length !== seed.agents)
      throw new Error(`the list without paging gave ${r.data.length} of ${seed.agents} agents`)
    return ms
  }
  const viaCore = async () => {
    const r = await direct<{ source: string }>('agents.list', {})
    if (r.source !== 'network') throw new Error('the list without paging did not come from the network')
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
  const ipc: number[] = []
  const rawMs: number[] = []
  // A collection before each list, the floor's too: each pays for its own garbage only.
  for (let r = 0; r < runs; r++) {
    gc()
    const t0 = performance.now()
    if ((await raw()) !== seed.agents) throw new Error('the raw list without paging is short')
    rawMs.push(performance.now() - t0)
    gc()
    const t1 = performance.now()
    await viaCore()
    ms.push(performance.now() - t1)
    gc()
    const [blocked, took] = await longestBlock(list)
    ipc.push(took)
    block = worse(block, blocked)
  }
  await call('session.signOut', { clearCache: true }).catch(() => undefined)
  return { block, firstBlock, ms, ipc, raw: rawMs, bytes }
}

/**
 * The figures' rows: `ids.list` (main's) and `ids.ipc` (the page's) beside their floor, `ids.block`
 * (goal ≤ 50 ms).
 */
export function unpagedRows(
  n: number,
  u: UnpagedFigures,
  ids: { list: string; ipc: string; block: string },
  over = ''
): BenchRow[] {
  return [
    {
      id: ids.list,
      name: `main GET /agents of ${n} from a server without paging (one answer)${over ? ` ${over}` : ''}`,
      value: median(u.ms),
      unit: 'ms',
      floor: median(u.raw),
      goal: 1.3,
      note: `floor: raw fetch + JSON.parse of the same answer, ${(u.bytes / 1e6).toFixed(1)} MB; runs ${u.ms.map((x) => x.toFixed(0)).join('/')}`
    },
    {
      id: ids.ipc,
      name: `  the same lists as the page gets them`,
      value: median(u.ipc),
      unit: 'ms',
      floor: median(u.raw),
      goal: 1.3,
      note: `runs ${u.ipc.map((x) => x.toFixed(0)).join('/')}`
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
