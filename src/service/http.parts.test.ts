/**
 * An answer sent in parts (`sendParts`, http.ts) over a real HTTP server on 127.0.0.1: the parts
 * go out as they are made and only as fast as the client takes them; they are let go when the
 * client goes away or stops taking.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { JsonArrayParts, okText, sendParts, type PartsOptions, WHOLE_CHARS } from './http'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

/** Parts `count` of `items` items each (`"i"` strings), noting how many were made and how they ended. */
function counted(count: number, items: number) {
  const note = { made: 0, finished: false, let: false }
  let ended!: () => void
  const over = new Promise<void>((r) => (ended = r))
  function* parts(): Generator<string, void, undefined> {
    try {
      for (let p = 0; p < count; p++) {
        note.made++
        yield Array.from({ length: items }, (_, i) => `"${p * items + i}"`).join(',')
      }
      note.finished = true
    } finally {
      note.let = !note.finished
      ended()
    }
  }
  return { note, over, data: new JsonArrayParts(parts()) }
}

/** A server that answers each request with `answer()`'s parts. */
async function serve(answer: () => JsonArrayParts, opts?: PartsOptions): Promise<string> {
  const server = http.createServer((req, res) => {
    req.resume()
    void sendParts(res, answer(), opts)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  cleanup.push(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      })
  )
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
}

async function fetched(url: string) {
  const res = await fetch(url)
  return { headers: res.headers, json: (await res.json()) as { success: boolean; data: string[] } }
}

/** Resolves once `value()` stayed the same over a few turns of the timers (the making stopped). */
async function settled(value: () => number): Promise<number> {
  let last = -1
  for (let same = 0; same < 4;) {
    await new Promise((r) => setTimeout(r, 25))
    const now = value()
    same = now === last ? same + 1 : 0
    last = now
  }
  return last
}

describe('an answer in parts', () => {
  it('longer than WHOLE_CHARS goes out in chunks, without a length: the envelope around every item, in order', async () => {
    // ~3.1 MB in 400 parts.
    const a = counted(400, 1000)
    const url = await serve(() => a.data)
    const r = await fetched(url)
    expect(r.headers.get('transfer-encoding')).toBe('chunked')
    expect(r.headers.get('content-length')).toBeNull()
    expect(r.json.success).toBe(true)
    expect(r.json.data).toEqual(Array.from({ length: 400_000 }, (_, i) => String(i)))
    await a.over
    expect(a.note).toMatchObject({ made: 400, finished: true, let: false })
  })

  it('shorter goes whole, with its length, in any number of parts (none too)', async () => {
    for (const n of [0, 1, 20]) {
      const a = counted(n, 1000)
      const r = await fetched(await serve(() => a.data))
      expect(r.headers.get('content-length')).not.toBeNull()
      expect(r.json.data).toEqual(Array.from({ length: n * 1000 }, (_, i) => String(i)))
    }
    // Parts to the first item are sent at once where WHOLE_CHARS is none.
    const a = counted(3, 2)
    const r = await fetched(await serve(() => a.data, { wholeChars: 0 }))
    expect(r.headers.get('transfer-encoding')).toBe('chunked')
    expect(r.json.data).toEqual(['0', '1', '2', '3', '4', '5'])
    expect(WHOLE_CHARS).toBeGreaterThan(20 * 1000 * 8)
  })

  it('is made only as fast as the client takes it; a client gone lets the parts go', async () => {
    // 4,000 parts of ~64 KB: ~256 MB if all were made.
    const a = counted(4000, 8000)
    const url = await serve(() => a.data)
    const req = http.get(url, (res) => {
      res.once('data', () => res.pause())
    })
    req.on('error', () => undefined)
    const made = await settled(() => a.note.made)
    expect(made).toBeGreaterThan(0)
    expect(made).toBeLessThan(400)
    expect(a.note.finished).toBe(false)
    req.destroy()
    await a.over
    expect(a.note).toMatchObject({ finished: false, let: true })
  })

  it('cuts a client that takes nothing for the stall time, and lets the parts go', async () => {
    const a = counted(4000, 8000)
    const url = await serve(() => a.data, { stallMs: 200 })
    const answer = new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get(url, (res) => {
          res.pause()
          resolve(res)
        })
        .on('error', reject)
    })
    const res = await answer
    await a.over
    expect(a.note.let).toBe(true)
    // Read on, the answer ends short: the connection was cut.
    const complete = await new Promise<boolean>((resolve) => {
      res.on('close', () => resolve(res.complete))
      res.on('error', () => undefined)
      res.resume()
    })
    expect(complete).toBe(false)
  })

  it('is joined whole where it is not sent (okText): every part read', () => {
    const a = counted(3, 2)
    expect(JSON.parse(okText(a.data))).toEqual({ success: true, data: ['0', '1', '2', '3', '4', '5'] })
    expect(a.note).toMatchObject({ made: 3, finished: true, let: false })
  })
})
