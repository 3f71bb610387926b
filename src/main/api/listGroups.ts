/**
 * A long list handed on a group of items at a time as its answer is read (largeAnswer.ts'
 * `GroupSink`), not once the whole answer was: 100,000 agents from a server without paging were
 * all parsed before the cache planned the first, ~100 MB alive at once, and the collector's
 * scavenges of them held main 13–26 ms every ~30 ms. A group goes on only from the envelope's
 * `data` of a success (`success: true` before it), and only as the transport hands an answer on:
 * the token masked out (searched for in the group's own bytes), the group marked with the digest
 * of those bytes (answerDigest.ts: the same bytes read again give the same groups). The last group
 * is the answer's `data` (`rest`); an answer of a group's size or less is never handed on in parts.
 *
 * Once a group went on, the request is not sent again (a retry would hand the same items twice)
 * and a failure is the list's: the taker sees it as a page that did not come.
 */
import { bytesMayHold, maskSecretsInSteps } from '../mask'
import { digestInSteps, markAnswer } from './answerDigest'
import type { GroupSink } from './largeAnswer'

/** Where a list's groups go (endpoints.ts' pages). */
export interface ListGroups {
  /** Items in a group (the last may hold fewer). */
  size: number
  /** A group, masked and marked with its digest; awaited before the answer is read on. */
  take(items: unknown[]): Promise<void>
}

/** Thrown into the reading once the request failed: no group goes on after that. */
class Closed extends Error {}

export class GroupStream implements GroupSink {
  readonly size: number
  /** A group was handed on (or is being). */
  started = false
  /** The last group, masked and marked, once the answer was read whole. */
  rest: unknown[] | undefined
  /** What the taker threw (the reading ended with it). */
  failure: unknown
  private closed = false
  private pending: Promise<void> = Promise.resolve()

  /** `secrets`: what is masked out of the groups (none for answers that carry them, API tokens). */
  constructor(
    private readonly to: ListGroups,
    private readonly secrets: readonly string[]
  ) {
    this.size = to.size
  }

  wants(key: string, before: Record<string, unknown>): boolean {
    return key === 'data' && before.success === true && !this.closed
  }

  take(items: unknown[], text: readonly Buffer[], last: boolean): Promise<void> {
    if (this.closed) return Promise.reject(new Closed())
    this.started = true
    this.pending = this.group(items, text, last).catch((e: unknown) => {
      this.failure ??= e
      throw e
    })
    return this.pending
  }

  /** No group goes on from here; resolves once the one going on (if any) has. */
  async close(): Promise<void> {
    this.closed = true
    await this.pending.catch(() => undefined)
  }

  private async group(items: unknown[], text: readonly Buffer[], last: boolean): Promise<void> {
    const clean = !(await bytesMayHold(text, this.secrets))
    const group = clean ? items : ((await maskSecretsInSteps(items, this.secrets)) as unknown[])
    // A masked group is not marked: its items are not those of its bytes.
    markAnswer(group, clean ? await digestInSteps(text) : undefined)
    if (last) this.rest = group
    else await this.to.take(group)
  }
}
