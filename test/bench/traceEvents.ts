/** A Chromium trace (Playwright's `browser.startTracing`) read by the profiling aids. */
export interface TraceEvent {
  name: string
  ph: string
  ts: number
  dur?: number
  pid: number
  tid: number
  args?: { name?: string; data?: { frame?: string } }
}

/** An event's thread, as `pid:tid`. */
export const threadOf = (e: TraceEvent): string => `${e.pid}:${e.tid}`

/** The renderer main threads of a trace (each page's). */
function rendererMains(events: TraceEvent[]): Set<string> {
  return new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map(threadOf)
  )
}

/**
 * Adds a trace's self time per event (style, layout, parse, compile, script…) on the page's main
 * thread, from navigation (or the `from` mark) to the paint (page time, ms), to `into`.
 */
export function addByEvent(
  events: TraceEvent[],
  into: Map<string, number>,
  from: number,
  painted: number,
  timeline: boolean
): void {
  const mains = rendererMains(events)
  const nav = events.find((e) => e.name === 'navigationStart' && mains.has(threadOf(e)))
  if (!nav) return
  addSelfTimes(events, into, threadOf(nav), nav.ts + from * 1000, nav.ts + painted * 1000, timeline, nav.ts)
}

/** The renderer main thread (`pid:tid`) with the most time in trace events: the page's, when one page was traced. */
export function busiestRendererMain(events: TraceEvent[]): string | undefined {
  const mains = rendererMains(events)
  const busy = new Map<string, number>()
  for (const e of events) {
    const t = threadOf(e)
    if (e.ph === 'X' && mains.has(t)) busy.set(t, (busy.get(t) ?? 0) + (e.dur ?? 0))
  }
  return [...busy].sort((a, b) => b[1] - a[1])[0]?.[0]
}

/**
 * Adds the self time per event of one thread (`pid:tid`) between `since` and `until` (trace µs)
 * to `into`; `timeline` also prints the thread's tasks and their larger parts (times from `origin`).
 */
export function addSelfTimes(
  events: TraceEvent[],
  into: Map<string, number>,
  thread: string,
  since: number,
  until: number,
  timeline: boolean,
  origin = since
): void {
  const spans = events
    .filter(
      (e) =>
        e.ph === 'X' && `${e.pid}:${e.tid}` === thread && e.dur && e.ts + (e.dur ?? 0) > since && e.ts < until
    )
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0))
  // Self time: a span's time in the window less its children's.
  const stack: { e: TraceEvent; end: number; self: number }[] = []
  const clip = (a: number, b: number) => Math.max(0, Math.min(b, until) - Math.max(a, since))
  const close = (upTo: number) => {
    while (stack.length && (stack[stack.length - 1] as { end: number }).end <= upTo) {
      const top = stack.pop() as { e: TraceEvent; self: number }
      into.set(top.e.name, (into.get(top.e.name) ?? 0) + top.self / 1000)
    }
  }
  for (const e of spans) {
    close(e.ts)
    if (timeline && stack.length <= 1 && (e.dur ?? 0) >= 1500) {
      const objects = (e.args as { beginData?: { dirtyObjects?: number } } | undefined)?.beginData
        ?.dirtyObjects
      const at = `${((e.ts - origin) / 1000).toFixed(1)} +${((e.dur ?? 0) / 1000).toFixed(1)} ms`
      console.log(`  ${'  '.repeat(stack.length)}${at} ${e.name}${objects ? ` (${objects} objects)` : ''}`)
    }
    const end = e.ts + (e.dur ?? 0)
    const parent = stack[stack.length - 1]
    if (parent) parent.self -= clip(e.ts, end)
    stack.push({ e, end, self: clip(e.ts, end) })
  }
  close(Infinity)
}
