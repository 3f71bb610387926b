/**
 * An answer its caller may know by its body's digest (KnownAnswer, transport.ts: a page of a list
 * as the cache stored it last) is read whole once it has come and offered by that digest; taken,
 * it is not parsed at all. Against a real HTTP server whose answers the tests script.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startScriptedServer, type ScriptedServer } from '../../../test/servers/scriptedServer'
import { memoryCapabilityStore } from './capabilities'
import { answerDigest, digestOf } from './answerDigest'
import { LARGE_ANSWER_BYTES } from './largeAnswer'
import { TakenAnswer, createTransport, type KnownAnswer } from './transport'
import { AGENTS_LIST } from '../../../test/support/calls'

const token = 'tok-known-answer-123456'
const agents = (n: number, note = '') =>
  Array.from({ length: n }, (_, i) => ({
    id: `a${i}`,
    name: `Agent ${i}`,
    description: `${note}${'x'.repeat(300)}`
  }))

let server: ScriptedServer
beforeAll(async () => {
  server = await startScriptedServer()
})
afterAll(async () => server.close())

/** The list asked once with `known`, the answer `body`; and the characters JSON.parse was given. */
async function ask(body: string, known: KnownAnswer<string>) {
  server.queue.push({ status: 200, headers: { 'Content-Type': 'application/json' }, body })
  const t = createTransport({
    baseUrl: server.url,
    getToken: () => token,
    capabilities: memoryCapabilityStore()
  })
  let parsed = 0
  const parse = JSON.parse.bind(JSON)
  vi.spyOn(JSON, 'parse').mockImplementation((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    parsed += text.length
    return parse(text, reviver) as unknown
  })
  try {
    const data = await t.request(AGENTS_LIST, undefined, known)
    return { data, parsed }
  } finally {
    vi.restoreAllMocks()
  }
}

describe('an answer the caller may know by its digest', () => {
  const long = JSON.stringify({ success: true, data: agents(8_000) })

  it('is read whole and offered by the digest of its body; taken, none of it is parsed', async () => {
    expect(long.length).toBeGreaterThan(LARGE_ANSWER_BYTES)
    const offered: string[] = []
    const { data, parsed } = await ask(long, {
      expected: () => true,
      take: async (digest) => (offered.push(digest), 'page 3')
    })
    expect(offered).toEqual([digestOf(Buffer.from(long))])
    expect(data).toBeInstanceOf(TakenAnswer)
    expect((data as TakenAnswer<string>).value).toBe('page 3')
    expect(parsed).toBeLessThan(long.length / 100)
  })

  it('not taken, it is parsed like any other answer, marked with the same digest', async () => {
    const { data, parsed } = await ask(long, { expected: () => true, take: async () => null })
    expect((data as unknown[]).length).toBe(8_000)
    expect(answerDigest(data)).toBe(digestOf(Buffer.from(long)))
    expect(parsed).toBeGreaterThan(long.length * 0.9)
  })

  it('not expected, or asking throws, it is read in steps as it comes and never offered', async () => {
    for (const expected of [
      () => false,
      () => {
        throw new Error('store closed')
      }
    ]) {
      const take = vi.fn(async () => 'never')
      const { data } = await ask(long, { expected, take })
      expect((data as unknown[]).length).toBe(8_000)
      expect(take).not.toHaveBeenCalled()
    }
  })

  it('an answer that holds the token is never offered: it is masked and parsed', async () => {
    const echoed = JSON.stringify({ success: true, data: agents(8_000, `Bearer ${token} `) })
    const take = vi.fn(async () => 'never')
    const { data } = await ask(echoed, { expected: () => true, take })
    expect(take).not.toHaveBeenCalled()
    expect(JSON.stringify(data)).not.toContain(token)
    expect(answerDigest(data)).toBeUndefined()
  })
})
