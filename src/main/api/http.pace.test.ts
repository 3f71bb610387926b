/**
 * An answer's bytes are taken a turn of the event loop at a time (paceByTurn, http.ts): a socket
 * with much waiting is otherwise read in one go, and every chunk's handling is one block of main.
 */
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { paceByTurn } from './http'

const CHUNK = 64 * 1024

/** Writes `count` chunks at once and records, per turn of the loop, the bytes its readers got. */
async function bytesPerTurn(pace: number | null, count: number): Promise<{ turns: number[]; body: Buffer }> {
  const stream = new PassThrough({ highWaterMark: CHUNK })
  if (pace !== null) paceByTurn(stream, pace)
  const turns = [0]
  let ticking = true
  const tick = () => {
    if (!ticking) return
    turns.push(0)
    setImmediate(tick)
  }
  setImmediate(tick)
  const got: Buffer[] = []
  stream.on('data', (chunk: Buffer) => {
    got.push(chunk)
    turns[turns.length - 1] = (turns[turns.length - 1] ?? 0) + chunk.length
  })
  const ended = new Promise<void>((resolve) => stream.on('end', resolve))
  for (let i = 0; i < count; i++) stream.write(Buffer.alloc(CHUNK, i % 251))
  stream.end()
  await ended
  ticking = false
  return { turns, body: Buffer.concat(got) }
}

describe('paceByTurn', () => {
  it('takes at most about its bytes a turn, and all of them in order', async () => {
    const { turns, body } = await bytesPerTurn(256 * 1024, 40)
    expect(Math.max(...turns)).toBeLessThanOrEqual(256 * 1024 + CHUNK)
    expect(turns.filter((n) => n > 0).length).toBeGreaterThanOrEqual(10)
    expect(body.length).toBe(40 * CHUNK)
    for (let i = 0; i < 40; i++) expect(body[i * CHUNK]).toBe(i % 251)
  })

  it('without it, the same bytes come in one turn (what the test above would see)', async () => {
    const { turns } = await bytesPerTurn(null, 40)
    expect(Math.max(...turns)).toBeGreaterThan(1024 * 1024)
  })
})
