/**
 * Lists taken as stored from their answer (SqliteCacheStore.putList): the digest of a server
 * answer (api/answerDigest.ts) whose items were all found stored as given, by resource and scope.
 * The same answer again means the same items, so only the list's sync time is written. Kept in
 * memory only (after a restart the first list is compared item by item again), and shared by the
 * stores open on one file (a session ending while a read of it is on its way can meet the next
 * one there): a write through any of them forgets, and counts.
 */
import type { Resource } from './types'

const byFile = new Map<string, AnswerMemory>()
const keyOf = (resource: Resource, scope: string): string => `${resource}\0${scope}`

/**
 * How a store joins: 'file', the stores open on the file; 'new file', afresh (the file was just
 * rebuilt: what stores still open on the old one remember is not about it); 'none', on its own
 * (a stand-in database in memory).
 */
export type AnswerSharing = 'file' | 'new file' | 'none'

export class AnswerMemory {
  private readonly answers = new Map<string, string>()
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

  get(resource: Resource, scope: string): string | undefined {
    return this.answers.get(keyOf(resource, scope))
  }

  /** Remembers `answer` for the list, unless anything was written since `writesBefore`. */
  remember(resource: Resource, scope: string, answer: string, writesBefore: number): void {
    if (this.writes === writesBefore) this.answers.set(keyOf(resource, scope), answer)
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
