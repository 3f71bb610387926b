/**
 * The window API (`buildDeskApi`) as the web harness uses it: rebuilt in a fresh scope from its
 * source text (e2e/harness/bridge.ts injects it into the page so), where it must close over no
 * import. A long list sent as text, in pieces of JSON parts, reaches the caller whole and in order.
 */
import { describe, expect, it } from 'vitest'
import { buildDeskApi, CHANNELS, EVENT_NAMES } from './ipc'

type Build = typeof buildDeskApi

describe('buildDeskApi', () => {
  it('works rebuilt from its source text alone, a list in pieces of JSON parts gathered whole', async () => {
    // `new Function` sees only globals: the function's own text must hold all it uses.
    const rebuilt = new Function(`return (${buildDeskApi.toString()})`)() as Build
    const agent = (i: number) => ({ id: `a${i}`, name: `Agent ${i} ✓` })
    const parts = (from: number, to: number, per: number) => {
      const out: string[] = []
      for (let i = from; i < to; i += per)
        out.push(JSON.stringify(Array.from({ length: Math.min(per, to - i) }, (_, k) => agent(i + k))))
      return out
    }
    const asked: string[] = []
    const api = rebuilt(
      CHANNELS,
      EVENT_NAMES,
      async (channel, input) => {
        asked.push(channel)
        if (channel === 'agents.list')
          return { ok: true, value: { data: [], source: 'network' }, more: { id: 'x1', count: 7 } }
        const next = asked.filter((c) => c === 'answers.next').length
        expect(input).toEqual({ id: 'x1' })
        if (next === 1) return { ok: true, value: { json: parts(0, 4, 3), done: false } }
        return { ok: true, value: { json: parts(4, 7, 2), done: true } }
      },
      () => () => undefined
    ) as { agents: { list(): Promise<{ data: unknown[]; source: string }> } }
    const read = await api.agents.list()
    expect(read.source).toBe('network')
    expect(read.data).toEqual(Array.from({ length: 7 }, (_, i) => agent(i)))
    expect(asked).toEqual(['agents.list', 'answers.next', 'answers.next'])

    // A short list comes whole in the reply's parts.
    const short = rebuilt(
      CHANNELS,
      EVENT_NAMES,
      async () => ({ ok: true, value: { data: [], source: 'cache' }, json: parts(0, 5, 2) }),
      () => () => undefined
    ) as typeof api
    expect((await short.agents.list()).data).toEqual(Array.from({ length: 5 }, (_, i) => agent(i)))
  })
})
