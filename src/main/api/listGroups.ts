/**
 * A long list handed on a group of items at a time as its answer is read (largeAnswer.ts'
 * `GroupSink`), not once the whole answer was: 100,000 agents from a server without paging were
 * all parsed before the cache planned the first, ~100 MB alive at once, and the collector's
 * scavenges of them held main 13–26 ms every ~30 ms. A group goes on only from the envelope's
 * `data` of a success (`success: true` before it), and only as the transport hands an answer on:
 * the token masked out (searched for in the group's own bytes), the group marked with the digest
 * of those bytes (answerDigest.ts: the same bytes read again give the same groups). Every group
 * goes on, the last too, and the request then answers nothing more (null); an answer of a group's
 * size or less is never handed on in parts. A group the taker knows by its digest (`KnownPages`:
 * the cache, a page of the answer it stored last) is taken by it and never parsed.
 *
 * Once a group went on, the request is not sent again (a retry would hand the same items twice)
 * and a failure is the list's: the taker sees it as a page that did not come.
 */
import { bytesMayHold, maskSecretsInSteps } from '../mask'
import { digestBytes, markAnswer, sizedDigest } from './answerDigest'
import type { GroupSink } from './largeAnswer'

/**
 * Pages a list's taker may take by the digest of their bytes alone, unparsed (the cache, for the
 * pages of the answer it stored last: offline/listWriter.ts).
 */
export interface KnownPages {
  /**
   * Whether the next page (or page `page`, counted from 0) may be one it knows (its bytes are then
   * kept unparsed until their digest is known).
   */
  expects(page?: number): boolean
  /** The digest the next page had, only where it may be one it knows (`expects`; sized for a group). */
  next?(): string | undefined
  /**
   * Takes the next page as the one it knows by this digest, if it can: what it took, or null.
   * `whole`: a group of a list in one answer (of `count` items, where they were counted); else a
   * page of a paged list. Uncounted, of as many as the page it knows.
   */
  take(digest: string, of: { whole: boolean; count?: number | undefined }): Promise<KnownPage | null>
}

/** A page taken by its digest (KnownPages): its items and the first one's id. */
export interface KnownPage {
  count: number
  first: string | undefined
}

/** Items in each later group of a long answer (`ListGroups.later`, endpoints.ts). */
export const LATER_GROUP = 1_000

/** Where a list's groups go (endpoints.ts' pages). */
export interface ListGroups {
  /** Items in the first group (whether the answer holds more than this: it goes on in groups). */
  size: number
  /**
   * Items in each later group (default `size`; the last may hold fewer). Smaller, a long answer
   * goes on in finer steps once it is known to be one (a list leaves main as it comes, and the page
   * parses all but the last few of its items while the answer is still read).
   */
  later?: number
  /**
   * A group, masked and marked with its digest; awaited before the answer is read on. Every group
   * of an answer handed on in groups goes here (but those `known` took), the last one too.
   */
  take(items: unknown[]): Promise<void>
  /** Groups taken by their digest, never parsed (none without). */
  known?: KnownPages
}

/** Thrown into the reading once the request failed: no group goes on after that. */
class Closed extends Error {}

export class GroupStream implements GroupSink {
  /** A group was handed on (or is being). */
  started = false
  /** The last group went on: the answer was read whole. */
  ended = false
  /** What the taker threw (the reading ended with it). */
  failure: unknown
  private closed = false
  private pending: Promise<void> = Promise.resolve()
  /** The group asked about (`known`) and not taken: its digest (undefined when masked), for `take`. */
  private asked: { digest: string | undefined } | null = null

  /** `secrets`: what is masked out of the groups (none for answers that carry them, API tokens). */
  constructor(
    private readonly to: ListGroups,
    private readonly secrets: readonly string[]
  ) {}

  /** Items in the group being read: `size` for the first, `later` for the others. */
  get size(): number {
    return this.started ? (this.to.later ?? this.to.size) : this.to.size
  }

  wants(key: string, before: Record<string, unknown>): boolean {
    return key === 'data' && before.success === true && !this.closed
  }

  expects(): boolean {
    return !this.closed && this.to.known?.expects() === true
  }

  knownBytes(): number | undefined {
    // `next` gives a digest only where the taker expects the page.
    return this.closed ? undefined : digestBytes(this.to.known?.next?.())
  }

  known(text: readonly Buffer[], count: number | undefined, last: boolean): Promise<boolean> {
    return this.going(async () => {
      const digest = await this.digest(text)
      if (this.closed) throw new Closed()
      if (digest === undefined || !(await this.to.known?.take(digest, { whole: true, count }))) {
        // Its digest kept for its `take`, unless it was found by its length alone (then scanned).
        if (count !== undefined) this.asked = { digest }
        return false
      }
      this.started = true
      if (last) this.ended = true
      return true
    }, count !== undefined)
  }

  take(items: unknown[], text: readonly Buffer[], last: boolean): Promise<void> {
    return this.going(() => this.group(items, text, last))
  }

  /** No group goes on from here; resolves once the one going on (if any) has. */
  async close(): Promise<void> {
    this.closed = true
    await this.pending
  }

  /**
   * A group going on: what it throws is the list's failure. `starts`: it is one (else only once
   * taken: a group asked about by its length alone, not taken, is scanned, and the first group's
   * size holds until it is handed on).
   */
  private going<T>(run: () => Promise<T>, starts = true): Promise<T> {
    if (this.closed) return Promise.reject(new Closed())
    if (starts) this.started = true
    const going = run().catch((e: unknown) => {
      this.failure ??= e
      throw e
    })
    this.pending = going.then(
      () => undefined,
      () => undefined // its failure is the caller's (and kept in `failure`)
    )
    return going
  }

  /** The digest of a group's bytes; none when they may hold a secret (the group is masked). */
  private async digest(text: readonly Buffer[]): Promise<string | undefined> {
    return (await bytesMayHold(text, this.secrets)) ? undefined : sizedDigest(text)
  }

  private async group(items: unknown[], text: readonly Buffer[], last: boolean): Promise<void> {
    const asked = this.asked
    this.asked = null
    const digest = asked ? asked.digest : await this.digest(text)
    // A masked group is not marked: its items are not those of its bytes.
    const group =
      digest !== undefined ? items : ((await maskSecretsInSteps(items, this.secrets)) as unknown[])
    markAnswer(group, digest)
    if (last) this.ended = true
    await this.to.take(group)
  }
}
