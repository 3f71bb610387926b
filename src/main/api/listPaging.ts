/**
 * How lists are paged (`skip`/`take`): the size asked for, the capability remembered, and how the
 * answers of servers that page otherwise (or not at all) are read (`pages` in endpoints.ts).
 */

/**
 * The capability remembered for list paging, and the page size. Pages once had to be small for
 * main's sake (a page's JSON.parse, token search and digest were one block: 15–38 ms for 2,000
 * agents, so pages were of 1,000); a page of 2 MiB or more is now read, searched and hashed in
 * steps while it arrives (largeAnswer.ts), like a whole list from a server without paging. So the
 * size is set by the server's cost of a page: each page is a request of its own, and the next is
 * asked for only once this one came. Measured on 10,000 agents from the embedded service (same
 * run, 2026-11-28): pages of 1,000 took 465 ms, of 2,500 324, of 5,000 297, of 10,000 329, beside
 * 267–296 ms for one fetch and `JSON.parse` of the whole list; the longest block of main 28–36 ms,
 * 61 at 10,000. At most the local service's largest `take` (10,000). The Local workspace too:
 * its service, on a thread of its own, makes the next page meanwhile.
 */
export const LIST_PAGING = 'lists.paging'
export const LIST_PAGE = 5_000
/** Items validated between two turns of the event loop (parseList). */
export const LIST_PARSE_STEP = 500
/**
 * Whether a first page that came shorter than asked for may have been cut at the server's cap
 * (`take` limited to, say, 100 or 1,000), not at the list's end: a round count, 20 or more. The
 * next page is then asked for too (the one request this costs when the list did end there), until
 * the server has once given a whole page of LIST_PAGE. Where the spec shows no paging, the origin
 * has none and the local service gives up to 10,000 a page, a server that pages and caps still
 * has its whole list read.
 */
export const capAt = (n: number): boolean => n >= 20 && n % 5 === 0
/** Answers that mean "not these query parameters" (a strict server). */
export const PAGING_REFUSED = new Set([400, 422])
/**
 * Answers to a page past a list's end that say "nothing there" (a server that refuses such a
 * `skip`). Anything else (no answer, a server error, signed out) is a failure, not the end.
 */
export const NOTHING_THERE = new Set([400, 404, 416, 422])
