import type { JsonParts, Read } from '../../shared/ipc'

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

/**
 * A list's items as JSON texts, in order: how main holds a long list read from a server (each
 * item as its cache row's JSON) and sends it on (pieces of text that the preload parses, see
 * answerPieces.ts). A string is one object for the garbage collector, with nothing inside to mark
 * or copy; 100,000 parsed agents are millions of objects, which main's collections copied and
 * marked for 30–50 ms at a time while such a list came.
 */
export class ListText<T = unknown> {
  constructor(readonly texts: readonly string[]) {}

  get length(): number {
    return this.texts.length
  }

  /** Items `from` to `to` as one JSON array. */
  json(from = 0, to = this.texts.length): string {
    return arrayText(this.texts, from, to)
  }

  /**
   * Items `from` to `to` as JSON arrays of about `partChars` characters each (a part ends with the
   * item that brings it to `partChars` or past it; an item is never split), as they leave main
   * (JsonParts). A text of 128 kB or more is made in memory of its own, mapped afresh, and so is
   * its copy on the way out: 10,000 agents sent to a worker in 5 texts of 2,000 took 110–145 ms,
   * in parts of ~50 agents 38–56.
   */
  jsonParts(from = 0, to = this.texts.length, partChars = JSON_PART_CHARS): JsonParts {
    const parts: string[] = []
    to = Math.min(to, this.texts.length)
    let start = from
    let chars = 0
    for (let i = from; i < to; i++) {
      chars += (this.texts[i] as string).length + 1
      if (chars >= partChars || i === to - 1) {
        parts.push(arrayText(this.texts, start, i + 1))
        start = i + 1
        chars = 0
      }
    }
    return parts
  }

  /** Items `from` to `to`, parsed. */
  values(from = 0, to = this.texts.length): T[] {
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
  private readonly arrived: string[]
  private expected: number
  private amended: ListAmends | null = null
  private failed: { error: unknown } | null = null
  private waiting: { to: number; resolve: () => void; reject: (e: unknown) => void }[] = []
  private transforms: ((text: string) => string)[] = []
  private forgotten = 0
  private ended = false
  /** The furthest text asked for (`until`), and how far past it the read may go (`pace`). */
  private asked = 0
  private ahead = Number.POSITIVE_INFINITY
  private roomWaiting: ((go: boolean) => void)[] = []

  /** `length`: the items to come, when known (else `length` is infinite until the list ends). */
  constructor(length?: number) {
    const arrived: string[] = []
    super(arrived)
    this.arrived = arrived
    this.expected = length ?? Number.POSITIVE_INFINITY
  }

  override get length(): number {
    return this.expected
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
    for (const text of texts) this.arrived.push(this.transformed(text))
    this.settle()
  }

  /**
   * The read ended: with what it read (fewer than announced when rows went meanwhile), or failed
   * (unless every text had come: what came is the list).
   */
  end(error?: unknown): void {
    if (this.ended) return
    this.ended = true
    if (error !== undefined && this.arrived.length < this.expected) this.failed = { error }
    else this.expected = this.arrived.length
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
    if (this.arrived.length >= Math.min(to, this.expected)) return Promise.resolve()
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
    const end = Math.min(to, this.arrived.length)
    for (let i = this.forgotten; i < end; i++) this.arrived[i] = ''
    this.forgotten = Math.max(this.forgotten, end)
  }

  /** Applies `fn` to every text, those there and those to come. */
  transform(fn: (text: string) => string): void {
    this.transforms.push(fn)
    for (let i = 0; i < this.arrived.length; i++) this.arrived[i] = fn(this.arrived[i] as string)
    if (this.amended) this.amended.first = this.amended.first.map(fn)
  }

  /** `text` with every transform applied (as it may leave main). */
  private transformed(text: string): string {
    for (const t of this.transforms) text = t(text)
    return text
  }

  private roomFor(): boolean {
    return this.arrived.length < this.asked + this.ahead
  }

  private makeRoom(): void {
    if (this.roomWaiting.length > 0 && this.roomFor()) for (const go of this.roomWaiting.splice(0)) go(true)
  }

  private settle(): void {
    if (this.waiting.length === 0) return
    const still: typeof this.waiting = []
    for (const w of this.waiting) {
      if (this.failed) w.reject(this.failed.error)
      else if (this.arrived.length >= Math.min(w.to, this.expected)) w.resolve()
      else still.push(w)
    }
    this.waiting = still
  }
}
