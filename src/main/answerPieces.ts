/**
 * Long lists leave main in pieces. Electron serialises an IPC answer on main's event loop, all at
 * once: a list of 100,000 agents (37 MB) held it ~200 ms, a piece of 1,000 holds it ~2–20 ms. So an
 * answer whose `data` is longer than a piece goes out with its first piece and `more` (AnswerMore);
 * the rest waits here until the preload asks `answers.next` for it, piece by piece. A list main
 * holds as its items' JSON (offline/listText.ts) leaves as JSON that the preload parses (main
 * neither parses it nor serialises its objects, and a string is serialised as a copy of its
 * bytes): whole in the reply's `json` up to a piece of text, else its first piece there with
 * `more`, every piece then JSON too; either as JSON arrays of ~30,000 characters (JsonParts: a text
 * of 128 kB or more costs a fresh mapping of memory to make and again to serialise).
 *
 * A list still being read (ComingListText) leaves as it is read, so that the page parses one piece
 * while main reads the next: the reply holds the rows read so far, each piece what was read since
 * the last, waiting for twice the last piece at least (at most a piece of text): pieces grow to
 * full size in a few steps. Answered whole once read, 1,000 agents from the cache reached the page
 * after their read, then their copy and parse (~5 ms) one after the other.
 *
 * What waits was masked already (core.sanitize, for the session's token then) and belongs to the
 * session that asked: another session or token, a minute without a piece asked, or more than
 * `keep` answers waiting drop it (the one asked least lately goes: an answer being gathered is
 * asked every message, so a burst of new answers does not take it). So a piece is not masked again
 * on its way out. A list still being read from the cache is read a piece ahead of the preload
 * (ComingListText.pace), and its read ends when its answer is dropped. A list answered as it comes
 * from a server has no count until it ends, and its last piece may amend it (PieceAmends).
 */
import { randomBytes } from 'node:crypto'
import { AppError } from '../shared/errors'
import type { AnswerMore, AnswerPiece, JsonParts } from '../shared/ipc'
import { isPlainObject } from './offline/merge'
import { ComingListText, ListText } from './offline/listText'

export interface AnswerPiecesOptions {
  /** Items a piece holds. Default 1,000 (~1 MB of agents, serialised in ~5–20 ms). */
  pieceItems?: number
  /**
   * Items a piece of a list held as text holds. Default 2,000 (~2 MB of agents: joined and
   * serialised in ~5–15 ms; 5,000 took 20–45 ms), or `pieceItems` when that is given.
   */
  textPieceItems?: number
  /** An answer not asked for a piece this long is dropped. Default 60,000 ms. */
  idleMs?: number
  /** Answers kept waiting at most (the one asked least lately is dropped). Default 16. */
  keep?: number
}

interface Waiting {
  items: unknown[] | ListText
  next: number
  /** Items of the last piece out (a list still being read waits for twice as many, `wanted`). */
  last: number
  owner: unknown
  token: string | null
  timer: ReturnType<typeof setTimeout>
}

export function answerGone(): AppError {
  return new AppError({
    kind: 'not_found',
    message: 'That list is no longer at hand: load it again.',
    code: 'answer_gone'
  })
}

/** Whether all of a list held as text is there, as it is (a list still being read: read, unamended). */
function all(data: ListText): boolean {
  return !(data instanceof ComingListText) || (data.ready >= data.length && !data.amends)
}

export class AnswerPieces {
  private readonly pieceItems: number
  private readonly textPieceItems: number
  private readonly idleMs: number
  private readonly keep: number
  private readonly waiting = new Map<string, Waiting>()

  constructor(opts: AnswerPiecesOptions = {}) {
    this.pieceItems = Math.max(1, opts.pieceItems ?? 1000)
    this.textPieceItems = Math.max(1, opts.textPieceItems ?? opts.pieceItems ?? 2000)
    this.idleMs = opts.idleMs ?? 60_000
    this.keep = Math.max(1, opts.keep ?? 16)
  }

  /**
   * The reply for `value`: as it is, or (a plain object whose `data` array is longer than a piece)
   * its first piece with `more`. `owner` is the session that asked (compared by identity), `token`
   * its token the value was masked for.
   */
  reply(
    value: unknown,
    owner: unknown,
    token: string | null = null
  ): { ok: true; value: unknown; more?: AnswerMore; json?: JsonParts } {
    const data = (value as { data?: unknown } | null)?.data
    const text = data instanceof ListText
    if (!isPlainObject(value) || !(Array.isArray(data) || text)) return { ok: true, value }
    // A list held as text leaves as text (parsed by the preload): none of it is parsed here.
    if (text && data.length <= this.textPieceItems && all(data))
      return { ok: true, value: { ...value, data: [] }, json: data.jsonParts() }
    if (!text && data.length <= this.pieceItems) return { ok: true, value }
    while (this.waiting.size >= this.keep) this.drop(this.waiting.keys().next().value as string)
    const id = randomBytes(16).toString('base64url')
    const wait = (first: number) =>
      this.waiting.set(id, { items: data, next: first, last: first, owner, token, timer: this.timer(id) })
    if (!text) {
      wait(this.pieceItems)
      return {
        ok: true,
        value: { ...value, data: data.slice(0, this.pieceItems) },
        more: { id, count: data.length }
      }
    }
    // Its first piece: of a list still being read, the texts read so far.
    const first = Math.min(data.ready, this.textPieceItems)
    const json = data.jsonParts(0, first)
    if (data instanceof ComingListText) {
      data.forget(first)
      // Read at the preload's pace: a piece past the one it asked for.
      data.pace(this.textPieceItems)
    }
    wait(first)
    // A list still coming from a server is counted once it ended.
    const more = Number.isFinite(data.length) ? { id, count: data.length } : { id }
    return { ok: true, value: { ...value, data: [] }, more, ...(first > 0 ? { json } : {}) }
  }

  /**
   * `reply`, once what it answers at once is there: a list still being read (ComingListText) answers
   * once its first texts are (or it ended), with them. Rejects as the list's read failed.
   */
  async answer(
    value: unknown,
    owner: unknown,
    token: string | null = null
  ): Promise<{ ok: true; value: unknown; more?: AnswerMore; json?: JsonParts }> {
    const data = (value as { data?: unknown } | null)?.data
    if (data instanceof ComingListText) await data.until(1)
    return this.reply(value, owner, token)
  }

  /** `next`, once the piece's items are there (a list still being read: ComingListText, `wanted`). */
  async nextWhenReady(id: string, owner: unknown, token: string | null = null): Promise<AnswerPiece> {
    const w = this.waiting.get(id)
    if (w && w.items instanceof ComingListText) await w.items.until(w.next + this.wanted(w.last))
    return this.next(id, owner, token)
  }

  /**
   * The texts a piece of a list still being read waits for (or the list's end): twice the last
   * piece, at least an eighth of a piece of text, at most a piece.
   */
  private wanted(last: number): number {
    return Math.min(this.textPieceItems, Math.max(2 * last, Math.ceil(this.textPieceItems / 8)))
  }

  /**
   * The next piece of answer `id` for session `owner` with `token`; throws `answerGone` when it is
   * not waiting (or was asked for by another session, or masked for another token).
   */
  next(id: string, owner: unknown, token: string | null = null): AnswerPiece {
    const w = this.waiting.get(id)
    if (!w || w.owner !== owner || w.token !== token) throw answerGone()
    const items = w.items
    const from = w.next
    // A list still being read: what was read since the last piece (nextWhenReady waited for it).
    if (items instanceof ComingListText) w.next = Math.min(from + this.textPieceItems, items.ready)
    else w.next += items instanceof ListText ? this.textPieceItems : this.pieceItems
    w.last = w.next - from
    const done = w.next >= w.items.length
    clearTimeout(w.timer)
    this.waiting.delete(id)
    if (!done) {
      // Last in the map now: `reply` drops from the front, the answer asked least lately.
      w.timer = this.timer(id)
      this.waiting.set(id, w)
    }
    if (!(items instanceof ListText)) return { items: items.slice(from, w.next), done }
    const json = items.jsonParts(from, w.next)
    if (!(items instanceof ComingListText)) return { json, done }
    // A list read for this answer alone lets go of what has left.
    items.forget(w.next)
    const amends = done ? items.amends : null
    if (!amends) return { json, done }
    // A list that left as it came, as it ended (PieceAmends).
    return {
      json,
      done,
      ...(amends.first.length > 0 ? { first: new ListText(amends.first).jsonParts() } : {}),
      ...(amends.gone.length > 0 ? { gone: amends.gone } : {})
    }
  }

  /** Items a piece of a list held as text holds. */
  get textItems(): number {
    return this.textPieceItems
  }

  /** Answers waiting now. */
  get size(): number {
    return this.waiting.size
  }

  /** Drops the answers another session asked for (the session changed). */
  keepOnly(owner: unknown): void {
    for (const [id, w] of [...this.waiting]) if (w.owner !== owner) this.drop(id)
  }

  /** Drops every waiting answer (the core closes). */
  clear(): void {
    for (const id of [...this.waiting.keys()]) this.drop(id)
  }

  private timer(id: string): ReturnType<typeof setTimeout> {
    const t = setTimeout(() => this.drop(id), this.idleMs)
    t.unref?.()
    return t
  }

  private drop(id: string): void {
    const w = this.waiting.get(id)
    if (!w) return
    clearTimeout(w.timer)
    this.waiting.delete(id)
    // A list still being read for this answer alone: its read ends (and lets go of its snapshot).
    if (w.items instanceof ComingListText) w.items.end(answerGone())
  }
}
