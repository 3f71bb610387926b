/**
 * A large answer read in steps. The origin service has no paging (decisions.md: "Client: handles
 * a plain array of any length"), so an account of 100,000 agents comes as one answer of tens of
 * MB, and one `JSON.parse` of it held main for 0.4–0.7 s: every IPC answer waited meanwhile.
 *
 * Here the body's bytes are scanned for where the root's members begin and end and, in an array
 * (the envelope's `data`, or a root array), where its elements do; the elements are parsed a batch
 * at a time (`JSON.parse('[' + the batch's text + ']')`), and the event loop gets a turn between
 * batches once a few milliseconds have passed (`turnEvery`). The scan (answerScan.ts) only finds
 * where values end: `JSON.parse` reads every value, and the scan checks what
 * lies between them (colons, commas, keys, whitespace). So a body is read as `JSON.parse` reads
 * it, or not at all: anything the scan does not expect gives `undefined`, and the caller reads the
 * body whole as before (where invalid JSON fails as it always did).
 *
 * The reading can begin before the whole answer has come (`ArrivingBody`, fed by api/http.ts as
 * the chunks arrive): a scan that reaches the bytes not yet come waits for more and begins that
 * value again, so most of a long list is read while the rest of it is still on its way.
 *
 * A long list can also be handed on a group of elements at a time as it is read (`GroupSink`),
 * so the cache plans each group while the next is read: 100,000 parsed agents were otherwise all
 * alive at once (~100 MB), and the collector's scavenges of them held main 13–26 ms every ~30 ms.
 * A group the sink may know by its bytes (the cache, the same page of the answer it stored last)
 * is looked for by the length it had (`knownBytes`), not scanned, and parsed only if the sink did
 * not take it as it is: read again unchanged, a list of 10,000 agents is then no item parsed (~40
 * ms of main's time, and the ~25 ms of collecting what they left), nor scanned (65–110 ms more).
 */
import { turnEvery } from '../turn'
import { ArrivingBody, pieces, text, whole, type Source } from './answerBytes'
import {
  QUOTE,
  COMMA,
  COLON,
  OPEN_ARRAY,
  CLOSE_ARRAY,
  OPEN_OBJECT,
  CLOSE_OBJECT,
  NotRead,
  NEED_MORE,
  peek,
  skipSpace,
  stringEnd,
  valueEnd
} from './answerScan'

/** Answers this long or longer are read in steps by the transport. */
export const LARGE_ANSWER_BYTES = 2 * 1024 * 1024
/**
 * A batch of an array's elements ends once its text is this long (~60 agents, under 1 ms)… A list
 * of 10,000 agents (9.8 MB) was read in 156–177 ms in batches of 256 kB, in 92–112 ms in batches of
 * 64 kB (32 kB: no faster), against 52 ms for one decoding and `JSON.parse` of it all. Most of it
 * was the decoding: all 9.8 MB as texts of 64 kB (or 96) in ~1 ms, of 128 kB (or 256) in 43–47 ms
 * (V8 makes a string of 128 kB or more in memory of its own, mapped afresh).
 */
const BATCH_BYTES = 64 * 1024
/** …or holds this many elements. */
const BATCH_ITEMS = 1000

function parseText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new NotRead()
  }
}

/**
 * `unit()`, run again (from `from()`, where what it scans begins) once more bytes have come, for
 * as long as it reaches bytes not yet come. It waits for twice as many bytes past `from()` as it
 * had (at least 64 kB more), so a long value arriving in small chunks is scanned again only a few
 * times, not once a chunk.
 */
async function until<T>(s: Source, from: () => number, unit: () => T): Promise<T> {
  for (;;) {
    try {
      return unit()
    } catch (e) {
      if (e !== NEED_MORE) throw e
      const had = s.avail - from()
      await s.more(s.avail + Math.max(64 * 1024, had))
    }
  }
}

interface Read {
  value: unknown
  end: number
}

interface Steps {
  yieldNow: () => Promise<void>
  batchBytes: number
}

/** Takes the elements of one array of the root object a group at a time, as they are read. */
export interface GroupSink {
  /** Whether the root object's member `key` (an array) is handed on; `before`: the members before it. */
  wants(key: string, before: Record<string, unknown>): boolean
  /**
   * Elements in a group: it is handed on once it holds this many and more follow. (Cut by count,
   * like a server's pages, not by bytes: an element changed changes its own group alone.)
   */
  readonly size: number
  /**
   * A group of elements, `text` the bytes they were read from (from its first element's first
   * byte to its last one's last, in pieces: subarrays of the answer's segments), awaited before
   * the reading goes on. The last group (`last`) is handed on only when others were, and is then
   * the array's value; an array of `size` elements or fewer is never handed on.
   */
  take(items: unknown[], text: readonly Buffer[], last: boolean): Promise<void>
  /**
   * Whether the group beginning now may be one the sink knows by its bytes (`known`): its
   * elements are then scanned, not parsed, until it ends. Default: none is.
   */
  expects?(): boolean
  /**
   * The group that ends here (`count` elements read from `text`, as `take`), taken as it is with
   * no element parsed, if the sink knows it: whether it did. Asked of a group `expects` was true
   * for; one not taken is parsed then, and handed to `take`. Without `count`: the bytes of the
   * length `knownBytes` gave, followed by a comma or the array's end, not scanned; not taken, the
   * group is scanned from its start.
   */
  known?(text: readonly Buffer[], count: number | undefined, last: boolean): Promise<boolean>
  /**
   * The length in bytes of the group beginning now, where it may be one the sink knows by them
   * (expects): they are asked about (`known`) before any element is scanned.
   */
  knownBytes?(): number | undefined
}

/** Past the spaces from `from`: where the next byte is, and the byte (END past a whole body). */
const nextByte = (s: Source, from: number) =>
  until(
    s,
    () => from,
    () => {
      const at = skipSpace(s, from)
      return { at, c: peek(s, at) }
    }
  )

/**
 * The array that begins at `i`, its elements parsed a batch at a time (handed on in groups to
 * `sink`; a group the sink may know is parsed only once it is known not to be: `expects`, `known`).
 */
async function readArray(s: Source, i: number, steps: Steps, sink?: GroupSink): Promise<Read> {
  let items: unknown[] = []
  const first = await nextByte(s, i + 1)
  if (first.c === CLOSE_ARRAY) return { value: items, end: first.at + 1 }
  let at = first.at
  // Where the group not yet handed on begins, its elements scanned so far, and whether one was.
  let groupAt = at
  let inGroup = 0
  let handed = false
  // The group's batches not parsed yet ([start, end) each), while the sink may know it.
  let unparsed: [number, number][] | null = sink?.expects?.() ? [] : null
  const parse = (start: number, end: number) => {
    for (const item of parseText(`[${text(s, start, end)}]`) as unknown[]) items.push(item)
  }
  const parseUnparsed = async () => {
    for (const [k, [start, end]] of (unparsed ?? []).entries()) {
      if (k > 0) await steps.yieldNow()
      parse(start, end)
    }
  }
  /**
   * The group beginning at `groupAt` looked for by its length (knownBytes) where the sink may know
   * it: 'none' where it gave none; 'other' where those bytes are not the group it knows (it is then
   * scanned and parsed); else the group was taken, and 'more' or 'last' follows.
   */
  const byLength = async (): Promise<'none' | 'other' | 'more' | 'last'> => {
    const bytes = sink?.knownBytes?.()
    if (bytes === undefined || !sink?.known) return 'none'
    const from = groupAt
    // Waited for up to the byte past them (not `until`'s doubling: asked about as soon as they came).
    await s.more(from + bytes + 1)
    const after = await until(
      s,
      () => from + bytes,
      () => {
        const next = skipSpace(s, from + bytes)
        return { next, c: peek(s, next) }
      }
    )
    if (after.c !== COMMA && after.c !== CLOSE_ARRAY) return 'other'
    const last = after.c === CLOSE_ARRAY
    if (!(await sink.known(pieces(s, from, from + bytes), undefined, last))) return 'other'
    handed = true
    at = last ? after.next : (await nextByte(s, after.next + 1)).at
    return last ? 'last' : 'more'
  }
  for (;;) {
    if (unparsed?.length === 0 && inGroup === 0) {
      const found = await byLength()
      if (found === 'last') return { value: items, end: at + 1 }
      if (found === 'more') {
        ;[items, groupAt, unparsed] = [[], at, sink?.expects?.() ? [] : null]
        s.forget?.(groupAt)
        await steps.yieldNow()
        continue
      }
      if (found === 'other') unparsed = null
    }
    // One batch: its elements scanned from `start`; `at` moves past each one wholly scanned.
    const start = at
    let end = at
    let count = 0
    let last = false
    const scan = () => {
      while (!last) {
        const e = valueEnd(s, at)
        const next = skipSpace(s, e)
        const c = peek(s, next)
        if (c !== COMMA && c !== CLOSE_ARRAY) throw new NotRead()
        const after = c === COMMA ? skipSpace(s, next + 1) : next
        // Past this element (and the spaces after a comma, which may yet be waited for).
        end = e
        count++
        at = after
        if (c === CLOSE_ARRAY) last = true
        else if (end - start >= steps.batchBytes || count >= BATCH_ITEMS) return
        else if (sink && inGroup + count >= sink.size) return // a group's end: `size` elements
      }
    }
    await until(s, () => at, scan)
    inGroup += count
    if (unparsed) unparsed.push([start, end])
    else parse(start, end)
    if (sink && (last ? handed : inGroup === sink.size)) {
      const group = pieces(s, groupAt, end)
      const known = unparsed !== null && sink.known !== undefined && (await sink.known(group, inGroup, last))
      if (!known) {
        await parseUnparsed()
        await sink.take(items, group, last)
      }
      handed = true
      if (!last) [items, groupAt, inGroup, unparsed] = [[], at, 0, sink.expects?.() ? [] : null]
      s.forget?.(groupAt) // the scan never goes back past a group it handed on
    } else if (last) await parseUnparsed() // an array of a group or less: its value, read whole
    if (last) return { value: items, end: at + 1 }
    await steps.yieldNow()
  }
}

/**
 * The object that begins at `i`: its keys and small values parsed at once, an array in steps (in
 * groups to `sink`, where it wants them: a member handed on is not met twice).
 */
async function readObject(s: Source, i: number, steps: Steps, sink?: GroupSink): Promise<Read> {
  const out: Record<string, unknown> = {}
  const handedOn = new Set<string>()
  let next = await nextByte(s, i + 1)
  if (next.c === CLOSE_OBJECT) return { value: out, end: next.at + 1 }
  for (;;) {
    if (next.c !== QUOTE) throw new NotRead()
    const keyAt = next.at
    const keyEnd = await until(
      s,
      () => keyAt,
      () => stringEnd(s, keyAt)
    )
    const key = parseText(text(s, keyAt, keyEnd)) as string
    const colon = await nextByte(s, keyEnd)
    if (colon.c !== COLON) throw new NotRead()
    const start = await nextByte(s, colon.at + 1)
    let value: unknown
    let end: number
    if (handedOn.has(key)) throw new NotRead()
    if (start.c === OPEN_ARRAY) {
      const wanted = sink?.wants(key, out) === true
      if (wanted) handedOn.add(key)
      const read = await readArray(s, start.at, steps, wanted ? sink : undefined)
      value = read.value
      end = read.end
    } else {
      end = await until(
        s,
        () => start.at,
        () => valueEnd(s, start.at)
      )
      value = parseText(text(s, start.at, end))
    }
    // As JSON.parse makes it: an own data property, also for "__proto__"; a later key wins.
    Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true })
    const after = await nextByte(s, end)
    if (after.c === CLOSE_OBJECT) return { value: out, end: after.at + 1 }
    if (after.c !== COMMA) throw new NotRead()
    next = await nextByte(s, after.at + 1)
  }
}

/**
 * The JSON value of `body` (UTF-8, a byte-order mark allowed) — a whole buffer, or an
 * `ArrivingBody` still arriving — read in steps with `yieldNow` awaited between them (an array's
 * elements in batches of about `batchBytes`); `undefined` when the body is not an object or an
 * array the steps read (not JSON, JSON with text around it, a root of another type, an answer
 * that ended early): read it whole then. A root object's long array may be handed on in groups as
 * it is read (`groups`); what `take` throws ends the reading (and is thrown).
 */
export async function parseJsonInSteps(
  body: Buffer | ArrivingBody,
  yieldNow: () => Promise<void> = turnEvery(),
  batchBytes = BATCH_BYTES,
  groups?: GroupSink
): Promise<{ value: unknown } | undefined> {
  const s = body instanceof ArrivingBody ? body : whole(body)
  const steps = { yieldNow, batchBytes }
  try {
    const bom = await until(
      s,
      () => 0,
      () => peek(s, 0) === 0xef && peek(s, 1) === 0xbb && peek(s, 2) === 0xbf
    )
    const root = await nextByte(s, bom ? 3 : 0)
    let read: Read
    if (root.c === OPEN_OBJECT) read = await readObject(s, root.at, steps, groups)
    else if (root.c === OPEN_ARRAY) read = await readArray(s, root.at, steps)
    else return undefined
    // Nothing but spaces after it, to the end of all the bytes.
    const end = await until(
      s,
      () => read.end,
      () => {
        const j = skipSpace(s, read.end)
        if (j === s.avail && !s.done) throw NEED_MORE
        return j
      }
    )
    return end === s.avail && s.avail === s.total ? { value: read.value } : undefined
  } catch (e) {
    if (e instanceof NotRead) return undefined
    throw e
  }
}
