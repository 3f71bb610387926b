/**
 * An answer's bytes as the reading in steps (largeAnswer.ts) sees them: a whole body, or one still
 * arriving (`ArrivingBody`, fed by api/http.ts as the chunks come), kept in the chunks it came in;
 * and what the reading asks of them (a byte, a search, a text, the pieces of a range).
 */

/**
 * Chunks shorter than this are gathered into buffers of this size as they come; longer ones are
 * kept as they came. Not copied into segments of a fixed size (as until 2026-11-29, 8 MB each):
 * copying 9.8 MB into memory made for it took 34–47 ms of main, most of it the system mapping
 * that memory afresh, against nothing for keeping the chunks the socket made. Nor into one buffer
 * of the Content-Length: a 98-MB buffer made at an answer's first byte, V8 counting it all at once
 * as memory outside its heap, made it collect at once ("external memory pressure": two scavenges
 * and a full collection, 46–91 ms of main at 100,000 agents, 2026-11-28). Gathering keeps an answer
 * that comes a few bytes at a time from being kept in as many pieces.
 */
export const GATHER_BYTES = 64 * 1024

/**
 * A body's bytes in segments, one after the other: `[0, avail)` have come; all have once `done`.
 * Each segment holds only bytes that came (the last one may grow as more come).
 */
export interface Source {
  readonly segs: readonly Buffer[]
  /** Where each segment begins in the body. */
  readonly starts: readonly number[]
  readonly avail: number
  /** How many bytes the body has in all (Infinity while that is not known). */
  readonly total: number
  readonly done: boolean
  /** The segment last looked up (reading goes forward: most lookups find it, or the next). */
  hint: number
  /** Resolves once `avail` has reached `atLeast` (or no more bytes will come). */
  more(atLeast: number): Promise<void>
  /** The bytes before `before` will not be read again (their segments may go). */
  forget?(before: number): void
}

/** What a segment let go is left as. */
const EMPTY = Buffer.alloc(0)

/**
 * An answer's bytes as they arrive: `declared` of them (its Content-Length), or, where the answer
 * came without one (in chunks), as many as came once it ended.
 */
export class ArrivingBody implements Source {
  readonly segs: Buffer[] = []
  readonly starts: number[] = []
  avail = 0
  done = false
  hint = 0
  /** Segments before this one were let go (`forget`). */
  private kept = 0
  /** The buffer short chunks are gathered into (its bytes that came: the last segment), and how full. */
  private gathering: Buffer | null = null
  private gathered = 0
  private wake: (() => void) | null = null
  private wanted = 0

  constructor(
    readonly declared: number | null,
    readonly gather = GATHER_BYTES
  ) {}

  get total(): number {
    return this.declared ?? (this.done ? this.avail : Infinity)
  }

  /**
   * More bytes came (never more than `declared` in all: HTTP holds a body to its Content-Length). A
   * chunk is kept as it came, never changed after: the socket makes a new one for each read.
   */
  add(chunk: Buffer): void {
    if (chunk.length === 0) return
    if (chunk.length >= this.gather) {
      this.gathering = null
      this.push(chunk)
    } else {
      for (let from = 0; from < chunk.length;) {
        if (!this.gathering || this.gathered === this.gathering.length) {
          // Short of `gather` where the body ends sooner (never of the rest of this chunk).
          const size = Math.min(this.gather, Math.max(this.total - this.avail, chunk.length - from))
          this.gathering = Buffer.allocUnsafeSlow(size)
          this.gathered = 0
          this.push(EMPTY)
        }
        const n = chunk.copy(this.gathering, this.gathered, from)
        from += n
        this.gathered += n
        this.avail += n
        this.segs[this.segs.length - 1] = this.gathering.subarray(0, this.gathered)
      }
    }
    this.woken()
  }

  private push(seg: Buffer) {
    this.segs.push(seg)
    this.starts.push(this.avail)
    this.avail += seg.length
  }

  /** No more bytes will come (the answer ended, or failed). */
  end(): void {
    this.done = true
    this.woken()
  }

  /** The bytes that came (all of them: none let go). */
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
    for (; this.kept < this.segs.length - 1 && (this.starts[this.kept + 1] as number) <= before; this.kept++)
      this.segs[this.kept] = EMPTY
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
  starts: [0],
  avail: buf.length,
  total: buf.length,
  done: true,
  hint: 0,
  more: () => Promise.resolve()
})

/** The segment that holds byte `i` (< avail). */
export function segOf(s: Source, i: number): number {
  const starts = s.starts
  let k = s.hint
  const n = starts.length
  if ((starts[k] as number) > i || (k + 1 < n && (starts[k + 1] as number) <= i)) {
    if (k + 2 < n && (starts[k + 1] as number) <= i && (starts[k + 2] as number) > i) k++
    else {
      let [lo, hi] = [0, n - 1]
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1
        if ((starts[mid] as number) <= i) lo = mid
        else hi = mid - 1
      }
      k = lo
    }
    s.hint = k
  }
  return k
}

/** The byte at `i` (< avail). */
export function byteAt(s: Source, i: number): number {
  const k = segOf(s, i)
  return (s.segs[k] as Buffer)[i - (s.starts[k] as number)] as number
}

/** Bytes `[start, end)` (come), as subarrays of the segments. */
export function pieces(s: Source, start: number, end: number): Buffer[] {
  const out: Buffer[] = []
  if (start >= end) return out
  for (let k = segOf(s, start), at = start; at < end; k++) {
    const seg = s.segs[k] as Buffer
    const base = s.starts[k] as number
    const upTo = Math.min(end, base + seg.length)
    if (upTo > at) out.push(seg.subarray(at - base, upTo - base))
    at = upTo
  }
  return out
}

/** Bytes `[start, end)` as text (UTF-8). */
export function text(s: Source, start: number, end: number): string {
  const k = segOf(s, start)
  const seg = s.segs[k] as Buffer
  const base = s.starts[k] as number
  if (end <= base + seg.length) return seg.toString('utf8', start - base, end - base)
  return Buffer.concat(pieces(s, start, end)).toString('utf8')
}

/** Where byte `c` is next, from `from`, among the bytes that came; -1 where not. */
export function indexOfByte(s: Source, c: number, from: number): number {
  if (from >= s.avail) return -1
  for (let k = segOf(s, from); k < s.segs.length; k++) {
    const base = s.starts[k] as number
    const at = (s.segs[k] as Buffer).indexOf(c, Math.max(0, from - base))
    if (at >= 0) return base + at
  }
  return -1
}
