/**
 * A large answer read in steps (largeAnswer.ts): read exactly as `JSON.parse` reads it, or not at
 * all; searched for the token and hashed as the whole-body path does; and, through the transport,
 * with the event loop turning between the steps.
 */
import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startScriptedServer, type ScriptedServer } from '../../../test/servers/scriptedServer'
import { wideAgent } from '../../../test/support/wideAgents'
import { bytesMayHold, jsonMayHold, MASK } from '../mask'
import { answerDigest, digestInSteps, digestOf } from './answerDigest'
import { JOIN_AT, JOIN_STEP, joinChunks } from './http'
import { memoryCapabilityStore } from './client'
import { ArrivingBody, byteAt, indexOfByte, pieces, text as textOf } from './answerBytes'
import { LARGE_ANSWER_BYTES, parseJsonInSteps } from './largeAnswer'
import { createTransport } from './transport'
import { AGENTS_LIST } from '../../../test/support/calls'

const noYield = () => Promise.resolve()

/** What `JSON.parse` makes of the text, or `undefined` when it throws. */
function parsedWhole(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text.replace(/^\uFEFF/, '')) as unknown }
  } catch {
    return undefined
  }
}

/** A JSON text of `value` with JSON's whitespace of any kind between its tokens. */
const spaced = (value: unknown, gap: string) =>
  JSON.stringify(value, null, gap).replace(/\n/g, gap.includes('\r') ? '\r\n' : '\n')

const rootValue = fc.oneof(
  fc.record({ success: fc.boolean(), data: fc.array(fc.jsonValue()) }),
  fc.array(fc.jsonValue()),
  fc.dictionary(fc.string(), fc.jsonValue())
)

describe('parseJsonInSteps', () => {
  it('reads any object or array as JSON.parse does, in batches of any size', async () => {
    await fc.assert(
      fc.asyncProperty(
        rootValue,
        fc.constantFrom('', ' ', '\t', '\r\n  '),
        fc.integer({ min: 1, max: 200 }),
        async (value, gap, batchBytes) => {
          const text = spaced(value, gap)
          const read = await parseJsonInSteps(Buffer.from(text), noYield, batchBytes)
          expect(read).toEqual({ value: JSON.parse(text) })
        }
      ),
      { numRuns: 400 }
    )
  })

  it('reads a changed text as JSON.parse does, or not at all (then the body is read whole)', async () => {
    // Bytes replaced, removed or added anywhere in a valid text: whatever JSON.parse throws on is
    // not read, and whatever the steps read equals what JSON.parse reads.
    const edit = fc.record({
      at: fc.nat(),
      remove: fc.integer({ min: 0, max: 3 }),
      insert: fc.constantFrom(
        '',
        ',',
        ']',
        '}',
        '[',
        '{',
        '"',
        '\\',
        ':',
        ' ',
        '1',
        'x',
        '\u00e9',
        '"a":',
        '\u2028'
      )
    })
    await fc.assert(
      fc.asyncProperty(rootValue, fc.array(edit, { minLength: 1, maxLength: 3 }), async (value, edits) => {
        let text = JSON.stringify(value)
        for (const e of edits) {
          const at = e.at % (text.length + 1)
          text = text.slice(0, at) + e.insert + text.slice(at + e.remove)
        }
        const read = await parseJsonInSteps(Buffer.from(text), noYield, 8)
        const whole = parsedWhole(text)
        if (whole === undefined) expect(read).toBeUndefined()
        else if (read !== undefined) expect(read).toEqual(whole)
      }),
      { numRuns: 1500 }
    )
  })

  it('makes "__proto__" an own key and lets a repeated key win, as JSON.parse does', async () => {
    const text = '{"__proto__":{"polluted":1},"data":[1],"data":[2,3],"a":{"__proto__":[]}}'
    const read = (await parseJsonInSteps(Buffer.from(text), noYield, 1)) as { value: Record<string, unknown> }
    expect(read.value).toEqual(JSON.parse(text))
    expect(Object.getPrototypeOf(read.value)).toBe(Object.prototype)
    expect(Object.hasOwn(read.value, '__proto__')).toBe(true)
    expect(Object.keys(read.value)).toEqual(Object.keys(JSON.parse(text) as object))
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('takes a byte-order mark and JSON whitespace around the root, and nothing else', async () => {
    const read = async (text: string) => parseJsonInSteps(Buffer.from(text), noYield, 4)
    expect(await read('\uFEFF \r\n{"data":[1, 2 ,3]}\t\n')).toEqual({ value: { data: [1, 2, 3] } })
    for (const text of ['{"data":[1]} x', '{"data":[1]}{}', '"text"', '42', '', '\u00a0{"a":1}', '{"a":1'])
      expect(await read(text), text).toBeUndefined()
  })

  it('awaits the turn of the loop between batches, not within one', async () => {
    const items = Array.from({ length: 100 }, (_, i) => ({
      id: `a${String(i).padStart(3, '0')}`,
      name: 'x'.repeat(90)
    }))
    const body = Buffer.from(JSON.stringify({ success: true, data: items }))
    let yields = 0
    const read = await parseJsonInSteps(body, async () => void yields++, 1000)
    expect(read).toEqual({ value: { success: true, data: items } })
    // A batch closes once its text (items and the commas between them) reaches 1,000 bytes.
    const size = JSON.stringify(items[0]).length
    let perBatch = 1
    while (perBatch * size + perBatch - 1 < 1000) perBatch++
    expect(perBatch).toBe(9)
    expect(yields).toBe(Math.ceil(items.length / perBatch) - 1)
  })
})

describe('parseJsonInSteps on an answer still arriving', () => {
  /** Feeds `text` in chunks of the given sizes, a turn of the loop apart, while it is read. */
  async function readArriving(
    text: string,
    sizes: number[],
    batchBytes: number,
    stopAt = Infinity,
    gather = 7,
    sized = true
  ) {
    const buf = Buffer.from(text)
    // Of its Content-Length, or without one (sent in chunks: its length known once it ended).
    const body = new ArrivingBody(sized ? buf.length : null, gather)
    let batchesBeforeEnd = 0
    let ended = false
    const reading = parseJsonInSteps(
      body,
      async () => {
        if (!ended) batchesBeforeEnd++
      },
      batchBytes
    )
    let at = 0
    for (let k = 0; at < Math.min(buf.length, stopAt); k++) {
      const n = Math.max(1, sizes[k % sizes.length] ?? 1)
      body.add(buf.subarray(at, Math.min(at + n, stopAt)))
      at = Math.min(at + n, stopAt)
      await new Promise((resolve) => setImmediate(resolve))
    }
    ended = true
    body.end()
    return { read: await reading, batchesBeforeEnd }
  }

  it('reads it as JSON.parse reads the whole, whatever the chunks, its length given or not', async () => {
    await fc.assert(
      fc.asyncProperty(
        rootValue,
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 0, max: 64 }),
        fc.boolean(),
        async (value, sizes, batchBytes, gather, sized) => {
          const text = spaced(value, ' ')
          // Kept in chunks as they came, or gathered: a value, a string, an escape may straddle two or more.
          const { read } = await readArriving(text, sizes, batchBytes, Infinity, gather, sized)
          expect(read).toEqual({ value: JSON.parse(text) })
        }
      ),
      { numRuns: 300 }
    )
  })

  it('reads a changed one as JSON.parse does, or not at all; and one that ends early not at all', async () => {
    await fc.assert(
      fc.asyncProperty(
        rootValue,
        fc.nat(),
        fc.constantFrom(',', ']', '}', '"', '\\', ' ', 'x'),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 5 }),
        async (value, where, insert, sizes) => {
          const valid = JSON.stringify(value)
          const at = where % (valid.length + 1)
          const text = valid.slice(0, at) + insert + valid.slice(at)
          const { read } = await readArriving(text, sizes, 16)
          const whole = parsedWhole(text)
          if (whole === undefined) expect(read).toBeUndefined()
          else if (read !== undefined) expect(read).toEqual(whole)
          const cut = await readArriving(valid, sizes, 16, Math.max(0, Buffer.byteLength(valid) - 1))
          expect(cut.read).toBeUndefined()
        }
      ),
      { numRuns: 300 }
    )
  })

  it('keeps the chunks as they came, not copied (short ones gathered), not in one buffer of the whole', () => {
    const body = new ArrivingBody(100, 16)
    const long = Buffer.alloc(20, 0x61)
    body.add(long)
    expect(body.segs).toEqual([long])
    expect(body.segs[0]?.buffer).toBe(long.buffer) // the chunk itself
    for (const c of ['b', 'c', 'd']) body.add(Buffer.alloc(6, c))
    expect(body.segs.map((s) => s.length)).toEqual([20, 16, 2])
    body.add(Buffer.alloc(50, 0x65))
    body.add(Buffer.alloc(12, 0x66))
    expect(body.segs.map((s) => s.length)).toEqual([20, 16, 2, 50, 12])
    expect(body.starts).toEqual([0, 20, 36, 38, 88])
    const all =
      'a'.repeat(20) + 'b'.repeat(6) + 'c'.repeat(6) + 'd'.repeat(6) + 'e'.repeat(50) + 'f'.repeat(12)
    expect(Buffer.concat(body.pieces).toString()).toBe(all)
    // Read from anywhere, in any order.
    for (const i of [99, 0, 37, 36, 35, 20, 19, 88, 87, 50])
      expect(String.fromCharCode(byteAt(body, i))).toBe(all[i])
    expect(textOf(body, 15, 92)).toBe(all.slice(15, 92))
    expect(pieces(body, 19, 39).map((p) => p.length)).toEqual([1, 16, 2, 1])
    expect(indexOfByte(body, 0x66, 10)).toBe(88)
    expect(indexOfByte(body, 0x61, 20)).toBe(-1)
  })

  it('parses most of a long list before its last bytes have come', async () => {
    const items = Array.from({ length: 2000 }, (_, i) => ({ id: `a${i}`, name: 'x'.repeat(90) }))
    const text = JSON.stringify({ success: true, data: items })
    const { read, batchesBeforeEnd } = await readArriving(text, [4096], 2048, Infinity, 10_000)
    expect(read).toEqual({ value: { success: true, data: items } })
    let batches = 0
    await parseJsonInSteps(Buffer.from(text), async () => void batches++, 2048)
    // ~230 kB in batches of ~2 kB (~110): most parsed while the rest was still coming (a scan that
    // reaches the bytes not yet come waits for 64 kB more).
    expect(batchesBeforeEnd).toBeGreaterThan(batches / 2)
  })
})

describe('the search for the token and the digest, in steps', () => {
  it('find the token where jsonMayHold finds it, and hash as digestOf does', async () => {
    const token = 'tok-abcdefgh-123456'
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue(),
        fc.constantFrom('', token, `${token}"`, 'abc/def\\gh', 'short'),
        fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 6 }),
        async (value, held, cuts) => {
          const text = JSON.stringify({ value, held })
          const body = Buffer.from(text)
          // The same bytes in pieces (as an answer is kept while it arrives), of any lengths.
          const pieces: Buffer[] = []
          let at = 0
          for (const n of cuts) pieces.push(body.subarray(at, (at = Math.min(body.length, at + n))))
          pieces.push(body.subarray(at))
          for (const secrets of [[token], ['abc/def\\gh'], ['short'], []]) {
            expect(await bytesMayHold(body, secrets, noYield)).toBe(jsonMayHold(text, secrets))
            expect(await bytesMayHold(pieces, secrets, noYield)).toBe(jsonMayHold(text, secrets))
          }
          expect(await digestInSteps(body, noYield)).toBe(digestOf(body))
          expect(await digestInSteps(pieces, noYield)).toBe(digestOf(body))
        }
      ),
      { numRuns: 300 }
    )
  })

  it('finds the token across the edge of a step', async () => {
    const token = 'tok-abcdefgh-123456'
    const step = 8 * 1024 * 1024
    for (const at of [step - 10, step - token.length, step - 1, step]) {
      const body = Buffer.alloc(step + 100, 0x20)
      body.write(token, at)
      let yields = 0
      expect(await bytesMayHold(body, [token], async () => void yields++)).toBe(true)
      expect(yields).toBeLessThanOrEqual(1)
    }
  })
})

describe("an answer's chunks joined", () => {
  /** Turns of the event loop while `work` runs (an immediate chain beside it). */
  async function turnsDuring<T>(work: () => Promise<T>): Promise<[number, T]> {
    let turns = 0
    let ticking = true
    const tick = () => {
      if (!ticking) return
      turns++
      setImmediate(tick)
    }
    setImmediate(tick)
    const value = await work()
    ticking = false
    return [turns, value]
  }
  const chunksOf = (total: number, size: number) =>
    Array.from({ length: Math.ceil(total / size) }, (_, i) =>
      Buffer.alloc(Math.min(size, total - i * size), i % 251)
    )

  it('joins a long answer a step at a time, the loop turning between steps, to the same bytes', async () => {
    const total = 3 * JOIN_STEP + 12_345
    const chunks = chunksOf(total, 65_536)
    const [turns, body] = await turnsDuring(() => joinChunks(chunks, total))
    expect(body.equals(Buffer.concat(chunks))).toBe(true)
    expect(turns).toBeGreaterThanOrEqual(3)
  })

  it('joins a shorter one at once', async () => {
    const total = JOIN_AT - 1
    const chunks = chunksOf(total, 65_536)
    const [turns, body] = await turnsDuring(() => joinChunks(chunks, total))
    expect(body.equals(Buffer.concat(chunks))).toBe(true)
    expect(turns).toBe(0)
  })
})

describe('the transport reads a large answer in steps', () => {
  let server: ScriptedServer
  beforeAll(async () => {
    server = await startScriptedServer()
  })
  afterAll(async () => server.close())

  const token = 'tok-large-answer-123456'
  /** An answer of ~3× LARGE_ANSWER_BYTES. */
  const count = Math.ceil((3 * LARGE_ANSWER_BYTES) / 200)

  /** Lists through the transport, counting the turns of the loop between the answer's arrival and the list. */
  async function list(body: string) {
    server.queue.push({ status: 200, headers: { 'Content-Type': 'application/json' }, body })
    let turns = 0
    let ticking = true
    const tick = () => {
      turns++
      if (ticking) setImmediate(tick)
    }
    let arrivedAt = -1
    const t = createTransport({
      baseUrl: server.url,
      getToken: () => token,
      capabilities: memoryCapabilityStore(),
      onRequest: () => () => void (arrivedAt = turns)
    })
    tick()
    const data = await t.request(AGENTS_LIST)
    ticking = false
    return { data, turnsAfterArrival: turns - arrivedAt }
  }

  it('gives the list JSON.parse gives, marked with the digest of its bytes, the loop turning meanwhile', async () => {
    const items = Array.from({ length: count }, (_, i) => wideAgent(i))
    const body = JSON.stringify({ success: true, data: items })
    expect(Buffer.byteLength(body)).toBeGreaterThan(2 * LARGE_ANSWER_BYTES)
    const { data, turnsAfterArrival } = await list(body)
    expect(data).toEqual(items)
    expect(answerDigest(data)).toBe(createHash('sha256').update(body).digest('base64'))
    // Read whole, the list came in the same turn as the answer's end; in steps, many turns later.
    expect(turnsAfterArrival).toBeGreaterThanOrEqual(8)
  })

  it('masks the token a large answer echoes, and reads an answer the steps do not read whole', async () => {
    const items = Array.from({ length: count }, (_, i) => wideAgent(i, i === count - 1 ? token : ''))
    const { data } = await list(JSON.stringify({ success: true, data: items }))
    const last = (data as { name: string }[]).at(-1)
    expect(last?.name).toContain(MASK)
    expect(JSON.stringify(data)).not.toContain(token)
    expect(answerDigest(data)).toBeUndefined()
    // Text after the JSON: not read in steps; read whole, it is not JSON, and the list fails clearly.
    const bad = `${JSON.stringify({ success: true, data: items.slice(0, count - 1) })} trailing`
    await expect(list(bad)).rejects.toMatchObject({ kind: 'protocol' })
  })
})
