/**
 * The order a paged list's pages go to their taker in (`pages` in endpoints.ts), where the taker
 * may know pages by their digest (KnownPages): page k, read whole and offered by its digest
 * (transport.ts' KnownAnswer), is taken only once page k - 1 was handed on. Where the taker knew a
 * page after it too (page k was full then), that page is asked for then, before page k is taken,
 * so that the server makes it while the taker takes page k (on 100,000 agents from the embedded
 * service, pages of 5,000, main otherwise waited ~20 ms a page for the server, and the server for
 * main); the loop uses that answer where page k came full, and drops it otherwise.
 */
import type { KnownAnswer } from './transport'
import type { KnownPage, KnownPages } from './listGroups'

/** A page asked for ahead of the loop: its place, and its answer. */
interface Ahead {
  k: number
  skip: number
  answer: Promise<unknown>
}

export class PageOrder {
  private readonly handed: { done: Promise<void>; resolve: () => void }[] = []
  private ahead: Ahead | null = null
  /** Pages asked for ahead and then not used: never taken. */
  private dropped = new Set<number>()
  private ended = false

  /**
   * `takes(digest)`: whether bytes of that digest may be taken unparsed. `ask(skip, k)` asks for
   * page k; `mayAsk()` whether pages may now be asked for ahead (the server is known to page).
   */
  constructor(
    private readonly known: KnownPages,
    private readonly takes: (digest: string) => boolean,
    private readonly ask: (skip: number, k: number) => Promise<unknown>,
    private readonly mayAsk: () => boolean
  ) {}

  /** What page k's request (at `skip`, of `size` when full) offers its bytes to. */
  answer(k: number, skip: number, size: number): KnownAnswer<KnownPage> {
    return {
      expected: () => !this.ended && this.known.expects(k),
      take: async (digest) => {
        if (k > 0) await this.turn(k - 1).done
        if (this.ended || this.dropped.has(k)) return null
        // Its turn: the loop has taken up any page asked ahead before it.
        if (!this.ahead && this.mayAsk() && this.known.expects(k + 1)) {
          const answer = this.ask(skip + size, k + 1)
          answer.catch(() => undefined) // awaited (and its failure thrown) where the loop uses it
          this.ahead = { k: k + 1, skip: skip + size, answer }
        }
        return this.takes(digest) ? this.known.take(digest, { whole: false }) : null
      }
    }
  }

  /** The answer asked ahead for page k at `skip`, if one was: any other asked ahead is dropped. */
  next(k: number, skip: number): Promise<unknown> | null {
    const ahead = this.ahead
    if (ahead && ahead.k === k && ahead.skip === skip) {
      this.ahead = null
      return ahead.answer
    }
    this.drop()
    return null
  }

  /** A page asked ahead, if any, is not used: it is not taken. */
  drop(): void {
    if (this.ahead) this.dropped.add(this.ahead.k)
    this.ahead = null
  }

  /** Page k was handed on (taken, or parsed and given): page k + 1 may be taken. */
  handedOn(k: number): void {
    this.turn(k).resolve()
  }

  /** The list ended (or failed): nothing more is taken, and a page asked ahead is dropped. */
  end(): void {
    this.ended = true
    this.ahead = null
    for (const h of this.handed) h?.resolve()
  }

  private turn(k: number) {
    if (this.ended) return { done: Promise.resolve(), resolve: () => {} }
    let h = this.handed[k]
    if (!h) {
      let resolve = () => {}
      const done = new Promise<void>((r) => (resolve = r))
      h = this.handed[k] = { done, resolve }
    }
    return h
  }
}
