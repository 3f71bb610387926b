import type { JsonParts, Read } from '../../shared/ipc'
import { type JsonBytes, partsOf, textsOf } from './jsonBytes'

/** Characters of a part of a list's text as it leaves main (under 64 kB even as two bytes each). */
export const JSON_PART_CHARS = 30_000

/** `texts[from, to)` (each an item's JSON) as one JSON array, made in one copy. */
function arrayText(texts: readonly string[], from: number, to: number): string {
  const parts = texts.slice(from, to)
  if (parts.length === 0) return '[]'
  parts[0] = `[${parts[0]}`
  parts[parts.length - 1] += ']'
  return parts.join(',')
}

type Run = { from: number; texts: string[] } | { from: number; n: number; json: JsonBytes | null }
type Transform = { fn: (text: string) => string; touches?: ((bytes: Buffer) => boolean) | undefined }

/**
 * A list's items as JSON texts, in order: how main holds a long list read from a server (each
 * item as its cache row's JSON) and sends it on (pieces of text that the preload parses, see
 * answerPieces.ts). A string is one object for the garbage collector, with nothing inside to mark
 * or copy; 100,000 parsed agents are millions of objects, which main's collections copied and
 * marked for 30–50 ms at a time while such a list came.
 */
export class ListText<T = unknown> {
  constructor(private readonly own: readonly string[]) {}

  /** Its items' JSON texts, in order. */
  get texts(): readonly string[] {
    return this.own
  }

  get length(): number {
    return this.own.length
  }

  /** Items there to be read now (of a list still being read, those read so far). */
  get ready(): number {
    return this.own.length
  }

  /** Items `from` to `to` as one JSON array. */
  json(from = 0, to = this.ready): string {
    return arrayText(this.texts, from, to)
  }

  /**
   * Items `from` to `to` as JSON arrays of about `partChars` characters each (a part ends with the
   * item that brings it to `partChars` or past it; an item is never split), as they leave main
   * (JsonParts). A text of 128 kB or more is made in memory of its own, mapped afresh, and so is
   * its copy on the way out: 10,000 agents sent to a worker in 5 texts of 2,000 took 110–145 ms,
   * in parts of ~50 agents 38–56.
   */
  jsonParts(from = 0, to = this.ready, partChars = JSON_PART_CHARS): JsonParts {
    const texts = this.texts
    const parts: JsonParts = []
    to = Math.min(to, texts.length)
    let start = from
    let chars = 0
    for (let i = from; i < to; i++) {
      chars += (texts[i] as string).length + 1
      if (chars >= partChars || i === to - 1) {
        parts.push(arrayText(texts, start, i + 1))
        start = i + 1
        chars = 0
      }
    }
    return parts
  }

  /** Items `from` to `to`, parsed. */
  values(from = 0, to = this.ready): T[] {
    return JSON.parse(this.json(from, to)) as T[]
  }
}

/** How a list answered as it came was amended once it ended (ComingListText.amend). */
export interface ListAmends {
  /** Texts of items listed before all others. */
  first: string[]
  /** Ids of items that came and are not in the list. */
  gone: string[]
}

/** A read of a list whose items are held as text (a list read from a server, cachedApi.ts). */
export type ListRead<T> = Read<T[]> | (Omit<Read<T[]>, 'data'> & { data: ListText<T> })

/** What a handler may answer for result `R`: a read of a list may hold its items as text. */
export type Answer<R> = R extends { data: (infer T)[] } ? R | (Omit<R, 'data'> & { data: ListText<T> }) : R

/** A list's items as values, whether held as text or not (once all of it is there). */
export async function listValues<T>(data: T[] | ListText<T>): Promise<T[]> {
  if (!(data instanceof ListText)) return data
  if (!(data instanceof ComingListText)) return data.values()
  const amends = (await data.whole()).amends
  if (!amends) return data.values()
  // Amended as it ended (ComingListText.amend): its first items, then those not gone.
  const gone = new Set(amends.gone)
  const kept = data.values().filter((v) => !gone.has((v as { id?: unknown }).id as string))
  return [...new ListText<T>(amends.first).values(), ...kept]
}

/**
 * A list held as text whose texts are still being read (offline/listRead.ts): its `length` is known
 * at once, its `texts` arrive a step at a time. Whoever reads them waits for them first (`until`,
 * `whole`): answerPieces.ts answers a piece once its items are there, so the page parses the first
 * pieces while main reads the next ones. A `transform` (core's masking of secrets) applies to the
 * texts there and to each that arrives, before anyone can read it.
 *
 * A list sent in pieces is read at its taker's pace (`pace`): the read waits (`room`) while it is
 * more than a piece past what was asked. Read ahead of the page, 100,000 agents' texts piled up in
 * main, and each collection of its young objects copied them all: collections took 530–550 ms of a
 * 1.55 s list, in blocks of main of 30–65 ms (profileMain --cached, 2026-11-29).
 */
export class ComingListText<T = unknown> extends ListText<T> {
  /**
   * Work that still runs for this list and needs its session (the write to the cache of a list
   * answered as it comes from a server): the call that answered it holds the session until it ends.
   */
  busy: Promise<void> | null = null
  /** What has come, in order: runs of texts, and runs of JSON bytes as SQLite gave them (`addJson`). */
  private readonly runs: Run[] = []
  /** Items that have come. */
  private count = 0
  private expected: number
  private amended: ListAmends | null = null
  private failed: { error: unknown } | null = null
  private waiting: { to: number; resolve: () => void; reject: (e: unknown) => void }[] = []
  private transforms: Transform[] = []
  /** Items before this one were let go (`forget`), and the runs before this one whole. */
  private forgotten = 0
  private forgottenRuns = 0
  private ended = false
  /** The furthest text asked for (`until`), and how far past it the read may go (`pace`). */
  private asked = 0
  private ahead = Number.POSITIVE_INFINITY
  private roomWaiting: ((go: boolean) => void)[] = []

  /** `length`: the items to come, when known (else `length` is infinite until the list ends). */
  constructor(length?: number) {
    super([])
    this.expected = length ?? Number.POSITIVE_INFINITY
  }

  override get length(): number {
    return this.expected
  }

  override get ready(): number {
    return this.count
  }

  /** The texts that have come; those held as bytes are decoded for it (for the rare reader of them all). */
  override get texts(): readonly string[] {
    const out: string[] = []
    for (const run of this.runs) {
      if ('texts' in run) for (const text of run.texts) out.push(text)
      else if (run.json) for (const text of textsOf(run.json)) out.push(text)
      else for (let i = 0; i < run.n; i++) out.push('')
    }
    return out
  }

  /** Items `from` to `to` as they leave main (ListText.jsonParts), runs of bytes made text for it. */
  override jsonParts(from = 0, to = this.count, partChars = JSON_PART_CHARS): JsonParts {
    const parts: JsonParts = []
    to = Math.min(to, this.count)
    for (const run of this.runs) {
      if (run.from >= to) break
      const n = 'texts' in run ? run.texts.length : run.n
      const a = Math.max(from, run.from) - run.from
      const b = Math.min(to, run.from + n) - run.from
      if (a >= b) continue
      if ('texts' in run) parts.push(...new ListText(run.texts).jsonParts(a, b, partChars))
      else if (run.json) parts.push(...partsOf(run.json, a, b, partChars))
      else parts.push(...new ListText(new Array<string>(b - a).fill('')).jsonParts())
    }
    return parts
  }

  /** Items held as texts, and held as the JSON bytes of SQLite's steps (as yet not made text). */
  get held(): { texts: number; bytes: number } {
    const held = { texts: 0, bytes: 0 }
    for (const run of this.runs) {
      if ('texts' in run) held.texts += run.texts.length
      else if (run.json) held.bytes += run.n
    }
    return held
  }

  /** What the list came to once it ended, told with its last piece (`amend`); null when nothing. */
  get amends(): ListAmends | null {
    return this.amended
  }

  /**
   * Before it ends: the list is these texts (`first`, transformed as every text is) and then the
   * texts that came but those of the items `gone` (ids): a list answered as it comes, amended once
   * the server's answer ended (items created offline listed first, items deleted meanwhile left out).
   */
  amend(first: readonly string[], gone: readonly string[]): void {
    if (first.length === 0 && gone.length === 0) return
    this.amended = { first: first.map((text) => this.transformed(text)), gone: [...gone] }
  }

  /** Texts read (in order); none once the list ended (its taker let it go). */
  add(texts: readonly string[]): void {
    if (this.ended) return
    if (texts.length > 0) {
      const last = this.runs[this.runs.length - 1]
      const run = last && 'texts' in last ? last : { from: this.count, texts: [] }
      if (run !== last) this.runs.push(run)
      for (const text of texts) run.texts.push(this.transformed(text))
      this.count += texts.length
    }
    this.settle()
  }

  /**
   * Items read as one JSON array of bytes (listRead.ts), kept as they are until they leave main
   * (made text a part at a time, `jsonParts`): no string is made of each. Taken as texts when a
   * transform may change them.
   */
  addJson(json: JsonBytes): void {
    if (this.ended) return
    const n = json.lengths.length
    if (n > 0 && this.transforms.some((t) => !t.touches || t.touches(json.bytes)))
      return this.add(textsOf(json))
    if (n > 0) {
      this.runs.push({ from: this.count, n, json })
      this.count += n
    }
    this.settle()
  }

  /**
   * The read ended: with what it read (fewer than announced when rows went meanwhile), or failed
   * (unless every text had come: what came is the list).
   */
  end(error?: unknown): void {
    if (this.ended) return
    this.ended = true
    if (error !== undefined && this.count < this.expected) this.failed = { error }
    else this.expected = this.count
    this.settle()
    for (const go of this.roomWaiting.splice(0)) go(false)
  }

  /**
   * From now on the read runs at most `ahead` texts past the furthest asked for (`until`; `whole`
   * asks for all), waiting for `room` meanwhile.
   */
  pace(ahead: number): void {
    this.ahead = Math.max(1, ahead)
    this.makeRoom()
  }

  /**
   * For the read, between two steps: resolves true once it may add texts (unpaced, at once), false
   * if the list ended meanwhile (its taker let it go: `end` from outside), when it reads no more.
   */
  room(): Promise<boolean> {
    if (this.ended) return Promise.resolve(false)
    if (this.roomFor()) return Promise.resolve(true)
    return new Promise((go) => this.roomWaiting.push(go))
  }

  /** Resolves once texts [0, to) are there, or the list ended shorter; rejects if the read failed. */
  until(to: number): Promise<void> {
    if (to > this.asked) {
      this.asked = to
      this.makeRoom()
    }
    if (this.failed) return Promise.reject(this.failed.error)
    if (this.count >= Math.min(to, this.expected)) return Promise.resolve()
    return new Promise((resolve, reject) => this.waiting.push({ to, resolve, reject }))
  }

  /** Resolves with this list once all its texts are there. */
  async whole(): Promise<this> {
    await this.until(Number.POSITIVE_INFINITY)
    return this
  }

  /**
   * Texts before `to` were sent and are not needed again (answerPieces.ts): let go, so main does not
   * hold a long list while the page takes it. The list reads as empty texts there from then on.
   */
  forget(to: number): void {
    to = Math.min(to, this.count)
    for (let r = this.forgottenRuns; r < this.runs.length; r++) {
      const run = this.runs[r] as Run
      if (run.from >= to) break
      if ('texts' in run) {
        const end = Math.min(to - run.from, run.texts.length)
        for (let i = Math.max(0, this.forgotten - run.from); i < end; i++) run.texts[i] = ''
        // The last run of texts may grow.
        if (end < run.texts.length || r === this.runs.length - 1) break
      } else {
        if (run.from + run.n > to) break
        run.json = null
      }
      this.forgottenRuns = r + 1
    }
    this.forgotten = Math.max(this.forgotten, to)
  }

  /**
   * Applies `fn` to every text, those there and those to come. `touches` tells of JSON bytes
   * whether `fn` may change any of their items (when it cannot, they are kept as bytes); without
   * it, every item is taken as text.
   */
  transform(fn: (text: string) => string, touches?: (bytes: Buffer) => boolean): void {
    this.transforms.push({ fn, touches })
    this.runs.forEach((run, r) => {
      if ('texts' in run) for (let i = 0; i < run.texts.length; i++) run.texts[i] = fn(run.texts[i] as string)
      // Bytes untouched by the transforms before: all of them apply.
      else if (run.json && (!touches || touches(run.json.bytes)))
        this.runs[r] = { from: run.from, texts: textsOf(run.json).map((text) => this.transformed(text)) }
    })
    if (this.amended) this.amended.first = this.amended.first.map(fn)
  }

  /** `text` with every transform applied (as it may leave main). */
  private transformed(text: string): string {
    for (const t of this.transforms) text = t.fn(text)
    return text
  }

  private roomFor(): boolean {
    return this.count < this.asked + this.ahead
  }

  private makeRoom(): void {
    if (this.roomWaiting.length > 0 && this.roomFor()) for (const go of this.roomWaiting.splice(0)) go(true)
  }

  private settle(): void {
    if (this.waiting.length === 0) return
    const still: typeof this.waiting = []
    for (const w of this.waiting) {
      if (this.failed) w.reject(this.failed.error)
      else if (this.count >= Math.min(w.to, this.expected)) w.resolve()
      else still.push(w)
    }
    this.waiting = still
  }
}
