/**
 * Lists taken as stored from their answer (SqliteCacheStore.putList): the digest of a server
 * answer (api/answerDigest.ts) whose items were all found stored as given (or were written so by
 * its list, nothing else writing meanwhile), by resource and scope.
 * The same answer again means the same items, so only the list's sync time is written. Kept in
 * memory only (after a restart the first list is compared item by item again), and shared by the
 * stores open on one file (a session ending while a read of it is on its way can meet the next
 * one there): a write through any of them forgets, and counts.
 *
 * Also where each page's members end, and, within STORED_TEXTS, what the cache answered then
 * (each item's id and row as text). A page of the same answer again, with nothing committed to the
 * file since by any connection (SQLite's data_version), may be taken by its digest with none of its
 * items parsed (listWriter.ts `takeKnown`): answered with those texts, no row read again (~4 ms of
 * main's time in each read of a 1,000-item list), or where they were not kept (a longer list),
 * with its members' rows read from the file (~5 ms a 1,000, against ~19 ms to parse and plan them).
 */
import type { PageEnd } from './listPorts'
import type { Resource } from './types'

/** Characters of remembered texts a memory keeps at most (~16 MB: longer lists read their rows). */
export const STORED_TEXTS = 16_000_000

/** Where a list's answer was stored: each page's end, and the connection and file version then. */
export interface PlacedAnswer {
  /** Per page: the items up to its end, and the position of its last member. */
  pages: readonly PageEnd[]
  /** The connection it was written through, and that connection's data_version then. */
  connection: object
  version: number
}

/** What the cache answered for a list, remembered with its answer's digests. */
export interface StoredAnswer extends PlacedAnswer {
  /** Each item's id and row as text, in the list's order. */
  ids: readonly string[]
  texts: readonly string[]
}

/**
 * A remembered answer: its pages' digests, where it was stored (its rows then read from the file),
 * and what was answered, when kept.
 */
export interface Remembered {
  digests: readonly string[]
  placed?: PlacedAnswer
  stored?: StoredAnswer
}

const byFile = new Map<string, AnswerMemory>()
const keyOf = (resource: Resource, scope: string): string => `${resource}\0${scope}`

/**
 * How a store joins: 'file', the stores open on the file; 'new file', afresh (the file was just
 * rebuilt: what stores still open on the old one remember is not about it); 'none', on its own
 * (a stand-in database in memory).
 */
export type AnswerSharing = 'file' | 'new file' | 'none'

export class AnswerMemory {
  /** Each list's answer, and the characters of its kept texts. */
  private readonly answers = new Map<string, Remembered & { size: number }>()
  private open = 0
  /** Writes to any resource through the stores sharing this memory. */
  writes = 0

  private constructor(private readonly file: string | null) {}

  static join(file: string, share: AnswerSharing): AnswerMemory {
    const open = share === 'file' ? byFile.get(file) : undefined
    const memory = open ?? new AnswerMemory(share === 'none' ? null : file)
    memory.open++
    if (memory.file !== null && !open) byFile.set(file, memory)
    return memory
  }

  /** When a store closes: the last one on a file takes the memory with it. */
  release(): void {
    if (--this.open === 0 && this.file !== null && byFile.get(this.file) === this) byFile.delete(this.file)
  }

  get(resource: Resource, scope: string): Remembered | undefined {
    return this.answers.get(keyOf(resource, scope))
  }

  /**
   * Remembers the answer (`digests`, and what was answered) for the list, unless anything was
   * written since `writesBefore`. Its texts are kept within STORED_TEXTS, the longest-kept lists'
   * let go first (their digests, and where their pages were stored, stay).
   */
  remember(
    resource: Resource,
    scope: string,
    digests: readonly string[],
    writesBefore: number,
    stored?: StoredAnswer
  ): void {
    if (this.writes !== writesBefore) return
    const key = keyOf(resource, scope)
    this.answers.delete(key)
    const size = stored ? textSize(stored) : 0
    const placed = stored && { pages: stored.pages, connection: stored.connection, version: stored.version }
    if (!placed || size > STORED_TEXTS) return void this.answers.set(key, { digests, placed, size: 0 })
    let kept = size
    for (const r of this.answers.values()) kept += r.size
    for (const r of this.answers.values()) {
      if (kept <= STORED_TEXTS) break
      kept -= r.size
      r.size = 0
      delete r.stored
    }
    this.answers.set(key, { digests, placed, stored, size })
  }

  forgetList(resource: Resource, scope: string): void {
    this.answers.delete(keyOf(resource, scope))
  }

  /** Before any write to a resource's rows or lists (to every resource's when none is named). */
  touched(resource?: Resource): void {
    this.writes++
    if (this.answers.size === 0) return
    for (const key of [...this.answers.keys()])
      if (resource === undefined || key.startsWith(keyOf(resource, ''))) this.answers.delete(key)
  }
}

/** The characters of its texts, counted as far as past STORED_TEXTS. */
function textSize(stored: StoredAnswer): number {
  let n = 0
  for (const t of stored.texts) if ((n += t.length) > STORED_TEXTS) break
  return n
}
