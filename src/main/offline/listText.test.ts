/**
 * A list still being read held as SQLite joins its steps (ComingListText.addJson): runs of JSON
 * bytes, made text a part at a time as they leave main, beside runs of texts.
 */
import { describe, expect, it } from 'vitest'
import { isJsonBytes, type JsonBytes } from './jsonBytes'
import { ComingListText } from './listText'

const item = (i: number) => ({ id: `a${i}`, name: `Agent ${i} — é😀` })
const text = (i: number) => JSON.stringify(item(i))

/** Items [from, to) as SQLite's step gives them: one JSON array of UTF-8 bytes and each item's length. */
function step(from: number, to: number): JsonBytes {
  const texts = Array.from({ length: to - from }, (_, k) => text(from + k))
  return { bytes: Buffer.from(`[${texts.join(',')}]`), lengths: texts.map((t) => Buffer.byteLength(t)) }
}

const items = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => item(from + k))
const partsItems = (parts: readonly string[]) => parts.flatMap((p) => JSON.parse(p) as unknown[])

describe('ComingListText of JSON bytes', () => {
  it('holds runs of bytes as they came, made text a part at a time as they leave', () => {
    const list = new ComingListText(9)
    list.addJson(step(0, 4))
    list.add([text(4), text(5)])
    list.addJson(step(6, 9))
    list.end()
    expect(list.ready).toBe(9)
    expect(list.held).toEqual({ texts: 2, bytes: 7 })
    expect(partsItems(list.jsonParts())).toEqual(items(0, 9))
    for (const [from, to] of [
      [1, 3],
      [3, 5],
      [2, 8],
      [5, 9],
      [8, 9],
      [4, 6]
    ] as const)
      expect(partsItems(list.jsonParts(from, to))).toEqual(items(from, to))
    expect(list.texts).toEqual(Array.from({ length: 9 }, (_, i) => text(i)))
    expect(list.values()).toEqual(items(0, 9))
    // Made text for sending, they are still held as bytes.
    expect(list.held).toEqual({ texts: 2, bytes: 7 })
  })

  it('makes parts of about the size asked for, of text ASCII or not', () => {
    const ascii = (i: number) => JSON.stringify({ id: `a${i}`, name: `Agent ${i}` })
    const texts = Array.from({ length: 40 }, (_, i) => ascii(i))
    const joined = Buffer.from(`[${texts.join(',')}]`)
    const list = new ComingListText(80)
    list.addJson({ bytes: joined, lengths: texts.map((t) => t.length) })
    list.addJson(step(40, 80))
    list.end()
    const parts = list.jsonParts(0, 80, 200)
    expect(partsItems(parts)).toEqual([...texts.map((t) => JSON.parse(t) as unknown), ...items(40, 80)])
    for (const part of parts) {
      const its = JSON.parse(part) as unknown[]
      // Under the size but for the item that reached it (in bytes; a part never splits an item).
      const before = its
        .slice(0, -1)
        .reduce<number>((n, x) => n + Buffer.byteLength(JSON.stringify(x)) + 1, 0)
      expect(before).toBeLessThan(200)
    }
    expect(parts.length).toBeGreaterThan(10)
    // The ASCII run is one-byte text; the other, two-byte (`é😀`), reads the same as its items.
    expect(parts.join('')).toContain('Agent 79 — é😀')
  })

  it('leaves a run’s bytes as they were once its parts are made, so parts made again are the same', () => {
    const run = step(0, 30)
    const before = Buffer.from(run.bytes)
    const list = new ComingListText(30)
    list.addJson(run)
    list.end()
    // Parts that start and end inside the run, at its start and at its end.
    const parts = list.jsonParts(0, 30, 100)
    expect(parts.length).toBeGreaterThan(3)
    expect(run.bytes.equals(before)).toBe(true)
    expect(isJsonBytes(run.bytes, run.lengths)).toBe(true)
    expect(list.jsonParts(0, 30, 100)).toEqual(parts)
    expect(partsItems(list.jsonParts(7, 23, 100))).toEqual(items(7, 23))
    expect(run.bytes.equals(before)).toBe(true)
  })

  it('lets go of runs sent whole; a run of texts that grows after is let go too', () => {
    const list = new ComingListText(12)
    list.addJson(step(0, 3))
    list.addJson(step(3, 6))
    list.forget(4)
    // The first run went; the second, half sent, stays for its other half.
    expect(list.held).toEqual({ texts: 0, bytes: 3 })
    expect(list.texts.slice(0, 6)).toEqual(['', '', '', text(3), text(4), text(5)])
    expect(partsItems(list.jsonParts(4, 6))).toEqual(items(4, 6))
    list.add([text(6)])
    list.forget(7)
    list.add([text(7), text(8)])
    list.forget(9)
    expect(list.texts).toEqual(Array.from({ length: 9 }, () => ''))
    list.addJson(step(9, 12))
    expect(partsItems(list.jsonParts(9))).toEqual(items(9, 12))
  })

  it('keeps bytes that a transform cannot change as bytes; takes the others as texts, transformed', () => {
    const list = new ComingListText(9)
    list.addJson(step(0, 3))
    list.addJson(step(3, 6))
    const swap = (t: string) => t.replaceAll('Agent 4', 'Agent four')
    // On what is there, and on what comes.
    list.transform(swap, (bytes) => bytes.includes('Agent 4') || bytes.includes('Agent 7'))
    list.addJson(step(6, 9))
    list.end()
    // The untouched run is still bytes; the others became texts, transformed.
    expect(list.held).toEqual({ texts: 6, bytes: 3 })
    const expected = items(0, 9).map((x) => (x.id === 'a4' ? { ...x, name: x.name.replace('4', 'four') } : x))
    expect(partsItems(list.jsonParts())).toEqual(expected)
    // A transform that cannot tell takes every item as text.
    const all = new ComingListText(3)
    all.addJson(step(0, 3))
    all.transform((t) => t.replace('"a', '"b'))
    expect(all.held).toEqual({ texts: 3, bytes: 0 })
    expect((all.values() as { id: string }[]).map((x) => x.id)).toEqual(['b0', 'b1', 'b2'])
  })

  it('tells JSON bytes from what is not', () => {
    const { bytes, lengths } = step(0, 3)
    expect(isJsonBytes(bytes, lengths)).toBe(true)
    expect(isJsonBytes(bytes, lengths.slice(1))).toBe(false)
    expect(isJsonBytes(bytes, [...lengths.slice(0, 2), (lengths[2] as number) + 1])).toBe(false)
    expect(isJsonBytes(Buffer.from(`{${bytes.subarray(1, -1).toString()}}`), lengths)).toBe(false)
    expect(isJsonBytes(Buffer.from('[]'), [])).toBe(false)
  })
})
