/**
 * A list answered as it comes from a server, in one answer without paging (CachedApi.readList,
 * api/listGroups.ts: it is read a group at a time): once more of it is planned
 * against the cache than a piece holds, its items leave main as they are planned, each as the text
 * its row will hold (`ListPlan.planned`), while the rest of the server's answer is still read, so
 * the page parses the first pieces meanwhile, not only once main has the whole list and has
 * written it (~100 ms for 10,000 agents, after main's ~300). What only the end tells goes with the
 * last piece (PieceAmends): items created offline, listed first, and items deleted while the answer
 * came, left out. A row that another write changes between its plan and the list's write is stored
 * merged again; the page has it as planned, as it would had that write come right after the list.
 */
import { ComingListText, type ListText } from './listText'
import type { ListWriter } from './types'

export class ListStream<T> {
  readonly list = new ComingListText<T>()
  /** Ids of the items sent on, in order. */
  private readonly sent: string[] = []

  constructor(private readonly writer: ListWriter) {}

  /** Sends on what was planned since. */
  feed(): void {
    const { ids, texts } = this.writer.planned(this.sent.length)
    for (const id of ids) this.sent.push(id)
    this.list.add(texts)
  }

  /**
   * The list was written: `data`, as the writer answered it, `amended` when it was given items to
   * list first or to leave out. The list ends amended to what was written; anything it had not sent
   * (a damaged file: the items as they came, unplanned) goes on first.
   */
  end(data: ListText, amended: boolean): void {
    let head = 0
    let gone: string[] = []
    if (amended) {
      const order = this.writer.order
      const kept = new Set(order)
      const sent = new Set(this.sent)
      gone = this.sent.filter((id) => !kept.has(id))
      while (head < order.length && !sent.has(order[head] as string)) head++
    }
    this.list.add(data.texts.slice(head + this.sent.length - gone.length))
    this.list.amend(data.texts.slice(0, head), gone)
    this.list.end()
  }

  /** The answer failed after its first items left: the list ends with `error`. */
  fail(error: unknown): void {
    this.list.end(error)
  }
}
