/**
 * A list read from the service a page at a time (`node --import tsx test/bench/paging.ts`), for
 * the scale figures: `scale.service.pages.<n>`, every page of 1,000 of `n` agents asked for in
 * turn (`?skip=…&take=1000`), as a client of a server that pages does, beside its floor, the same
 * agents in one answer (`GET /agents`), interleaved; each body is read and parsed. Its growth per
 * item from 10,000 to 100,000 (`scale.service.pages.growth`, goal ≤ 1.2×) shows a page's cost
 * rising with its place in the list: with `OFFSET`, page 100 took twice as long as page 1
 * (the whole walk of 100,000 grew 1.32–1.35× per item against 10,000, 2026-11-30), and since then
 * a page that begins where the page before it ended (src/service/pageEnds.ts) passes over no row.
 * The service runs in this process; the agents are written into its file by a connection of
 * their own (the service reads them as another connection's commit).
 */
import { copyRows } from '../support/copyRows'
import { signUp, startTestServer } from '../support/serviceKit'
import { median, runAsScript, scaleRuns, type BenchRow } from './types'

/** Agents a page. */
export const PAGE = 1000

export interface PagingBenchOptions {
  /** List lengths. Default 1,000, 10,000 and 100,000. */
  scale?: number[]
}

export async function runPagingBench(options: PagingBenchOptions = {}): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  for (const n of options.scale ?? [1000, 10_000, 100_000]) {
    // A service of its own for each length: one user's list, nothing left of the last.
    const srv = await startTestServer()
    try {
      const me = await signUp(srv.base, 'Pager')
      const created = await me.api.post('/agents', {
        name: 'Paged agent',
        type: 'REACT',
        llm: { provider: 'openai', model: 'gpt-4o-mini' }
      })
      if (created.status !== 200) throw new Error(`POST /agents answered ${created.status}`)
      copyRows(srv.dataDir, 'agents', (created.data as { id: string }).id, n - 1)
      const headers = { Authorization: `Bearer ${me.token}` }
      const get = async (query: string): Promise<number> => {
        const res = await fetch(`${srv.base}/agents${query}`, { headers })
        return (JSON.parse(await res.text()) as { data: unknown[] }).data.length
      }
      const firsts: number[] = []
      const lasts: number[] = []
      const paged = async () => {
        let read = 0
        let last = NaN
        for (let skip = 0; ; skip += PAGE) {
          const t = performance.now()
          const got = await get(`?skip=${skip}&take=${PAGE}`)
          const ms = performance.now() - t
          if (skip === 0) firsts.push(ms)
          if (got === PAGE) last = ms
          read += got
          if (got < PAGE) {
            lasts.push(last)
            return read
          }
        }
      }
      const walks: number[] = []
      const wholes: number[] = []
      const runs = scaleRuns(n, 5)
      for (let r = 0; r <= runs; r++) {
        let t = performance.now()
        const read = await paged()
        const walk = performance.now() - t
        t = performance.now()
        const all = await get('')
        const whole = performance.now() - t
        if (read !== n || all !== n) throw new Error(`expected ${n} agents, paged ${read}, whole ${all}`)
        // The first of each is not timed (the service's statements prepared, its file read).
        if (r > 0) {
          walks.push(walk)
          wholes.push(whole)
        }
      }
      rows.push({
        id: `scale.service.pages.${n}`,
        name: `service: ${n} agents a page of ${PAGE} at a time, each page asked for in turn`,
        value: median(walks),
        unit: 'ms',
        floor: median(wholes),
        note: `floor: the same agents in one answer; median of ${runs}; ${((median(walks) / n) * 1000).toFixed(1)} µs per agent; first / last whole page ${median(firsts).toFixed(1)} / ${median(lasts).toFixed(1)} ms`
      })
    } finally {
      await srv.stop()
    }
  }
  return rows
}

runAsScript(import.meta.url, 'Service: a list a page at a time', () => runPagingBench())
