import type { Read } from '../../shared/ipc'

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
    return `[${this.texts.slice(from, to).join(',')}]`
  }

  /** Items `from` to `to`, parsed. */
  values(from = 0, to = this.texts.length): T[] {
    return JSON.parse(this.json(from, to)) as T[]
  }
}

/** A read of a list whose items are held as text (a list read from a server, cachedApi.ts). */
export type ListRead<T> = Read<T[]> | (Omit<Read<T[]>, 'data'> & { data: ListText<T> })

/** What a handler may answer for result `R`: a read of a list may hold its items as text. */
export type Answer<R> = R extends { data: (infer T)[] } ? R | (Omit<R, 'data'> & { data: ListText<T> }) : R

/** A list's items as values, whether held as text or not. */
export function listValues<T>(data: T[] | ListText<T>): T[] {
  return data instanceof ListText ? data.values() : data
}
