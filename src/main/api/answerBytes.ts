/**
 * An answer's bytes as the reading in steps (largeAnswer.ts) sees them: a whole body, or one still
 * arriving (`ArrivingBody`, fed by api/http.ts as the chunks come), kept in segments; and what the
 * reading asks of them (a byte, a search, a text, the pieces of a range).
 */

/**
 * The segments an arriving answer is kept in (the last one shorter). Not one buffer of its
 * Content-Length: a 98-MB buffer made at an answer's first byte, V8 counting it all at once as
 * memory outside its heap, made it collect at once ("external memory pressure": two scavenges and
 * a full collection, 46–91 ms of main at 100,000 agents, 2026-11-28). A segment is made as the
 * bytes reach it; one holds a page of 5,000 agents (~5 MB) whole.
 */
export const SEGMENT_BYTES = 8 * 1024 * 1024

/**
 * A body's bytes, in segments of `segSize` (the last one partly filled): `[0, avail)` have come;
 * all have once `done`.
 */
export interface Source {
  readonly segs: readonly Buffer[]
  readonly segSize: number
  readonly avail: number
  /** How many bytes the body has in all. */
  readonly total: number
  /** Segment `k` as far as its bytes came (searched, never the bytes past them: not yet come). */
  came(k: number): Buffer
  readonly done: boolean
  /** Resolves once `avail` has reached `atLeast` (or no more bytes will come). */
  more(atLeast: number): Promise<void>
  /** The bytes before `before` will not be read again (their segments may go). */
  forget?(before: number): void
}

/** What a segment let go is left as. */
const EMPTY = Buffer.alloc(0)

/** An answer's bytes as they arrive, `total` of them (its Content-Length). */
export class ArrivingBody implements Source {
  readonly segs: Buffer[] = []
  avail = 0
  done = false
  /** Segments before this one were let go (`forget`). */
  private kept = 0
  /** The segment being filled, as far as it is (`came`). */
  private filling: Buffer = EMPTY
  private wake: (() => void) | null = null
  private wanted = 0

  constructor(
    readonly total: number,
    readonly segSize = SEGMENT_BYTES
  ) {}

  /** More bytes came (never more than `total` in all: HTTP holds a body to its Content-Length). */
  add(chunk: Buffer): void {
    for (let from = 0; from < chunk.length;) {
      const k = Math.floor(this.avail / this.segSize)
      const seg = (this.segs[k] ??= Buffer.allocUnsafeSlow(
        Math.min(this.segSize, this.total - k * this.segSize)
      ))
      const n = chunk.copy(seg, this.avail - k * this.segSize, from)
      from += n
      this.avail += n
      this.filling = seg.subarray(0, this.avail - k * this.segSize)
    }
    this.woken()
  }

  came(k: number): Buffer {
    return k === this.segs.length - 1 ? this.filling : (this.segs[k] as Buffer)
  }

  /** No more bytes will come (the answer ended, or failed). */
  end(): void {
    this.done = true
    this.woken()
  }

  /** The bytes that came, a segment or less each (all of them: none let go). */
  get pieces(): Buffer[] {
    if (this.kept > 0) throw new Error('Part of the answer was let go as it was read')
    return pieces(this, 0, this.avail)
  }

  /**
   * Lets go of the segments wholly before `before`: a list handed on in groups is not read again,
   * so an answer of 98 MB is not all held (nor counted by V8 as memory outside its heap) while it
   * is read.
   */
  forget(before: number): void {
    const upTo = Math.min(Math.floor(before / this.segSize), this.segs.length)
    for (; this.kept < upTo; this.kept++) this.segs[this.kept] = EMPTY
  }

  more(atLeast: number): Promise<void> {
    if (this.done || this.avail >= atLeast) return Promise.resolve()
    this.wanted = atLeast
    return new Promise((resolve) => (this.wake = resolve))
  }

  private woken() {
    if (!this.wake || (!this.done && this.avail < this.wanted)) return
    const wake = this.wake
    this.wake = null
    wake()
  }
}

/** A whole body (one segment). */
export const whole = (buf: Buffer): Source => ({
  segs: [buf],
  segSize: Math.max(1, buf.length),
  avail: buf.length,
  total: buf.length,
  came: () => buf,
  done: true,
  more: () => Promise.resolve()
})

/** The byte at `i` (< avail). */
export const byteAt = (s: Source, i: number) =>
  (s.segs[Math.floor(i / s.segSize)] as Buffer)[i % s.segSize] as number

/** Bytes `[start, end)` (come), as subarrays of the segments. */
export function pieces(s: Source, start: number, end: number): Buffer[] {
  const out: Buffer[] = []
  for (let at = start; at < end;) {
    const k = Math.floor(at / s.segSize)
    const base = k * s.segSize
    const upTo = Math.min(end, base + s.segSize)
    out.push((s.segs[k] as Buffer).subarray(at - base, upTo - base))
    at = upTo
  }
  return out
}

/** Bytes `[start, end)` as text (UTF-8). */
export function text(s: Source, start: number, end: number): string {
  const k = Math.floor(start / s.segSize)
  const base = k * s.segSize
  if (end <= base + s.segSize) return (s.segs[k] as Buffer).toString('utf8', start - base, end - base)
  return Buffer.concat(pieces(s, start, end)).toString('utf8')
}

/** Where byte `c` is next, from `from`, among the bytes that came; -1 where not. */
export function indexOfByte(s: Source, c: number, from: number): number {
  for (let k = Math.floor(from / s.segSize); k * s.segSize < s.avail; k++) {
    const base = k * s.segSize
    const at = s.came(k).indexOf(c, Math.max(0, from - base))
    if (at >= 0) return base + at
  }
  return -1
}
