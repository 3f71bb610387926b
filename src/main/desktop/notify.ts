/**
 * When to tell the user, with a native notification, that queued changes could not be sent: only
 * while the window is hidden or minimised (otherwise the Outbox badge says it), only for entries
 * that have just failed (not again for one already failed), never for the same entry twice.
 */
import type { OutboxEntry } from '../../shared/ipc'

export interface NotifyDecision {
  notify: boolean
  /** The entries that have just failed (whether or not a notification is due). */
  newlyFailed: string[]
  title: string
  body: string
}

export function failureMessage(count: number): string {
  return count === 1 ? '1 change could not be sent' : `${count} changes could not be sent`
}

export function shouldNotify(
  previous: readonly OutboxEntry[],
  next: readonly OutboxEntry[],
  windowVisible: boolean,
  alreadyNotified: ReadonlySet<string> = new Set()
): NotifyDecision {
  const failedBefore = new Set(previous.filter((e) => e.status === 'failed').map((e) => e.id))
  const newlyFailed = next
    .filter((e) => e.status === 'failed' && !failedBefore.has(e.id) && !alreadyNotified.has(e.id))
    .map((e) => e.id)
  const notify = !windowVisible && newlyFailed.length > 0
  return {
    notify,
    newlyFailed,
    title: failureMessage(newlyFailed.length),
    body: 'The server refused them. Open the Outbox to retry or discard them.'
  }
}

/** Keeps the last outbox seen and the entries already notified; feed it every `outbox.changed`. */
export class FailedReplayWatcher {
  private previous: readonly OutboxEntry[] = []
  private readonly notified = new Set<string>()

  constructor(
    private readonly isWindowVisible: () => boolean,
    private readonly show: (title: string, body: string) => void
  ) {}

  update(next: readonly OutboxEntry[]): NotifyDecision {
    const d = shouldNotify(this.previous, next, this.isWindowVisible(), this.notified)
    this.previous = next
    // Forget what has left the outbox (sent or discarded).
    const ids = new Set(next.map((e) => e.id))
    for (const id of [...this.notified]) if (!ids.has(id)) this.notified.delete(id)
    if (d.notify) {
      for (const id of d.newlyFailed) this.notified.add(id)
      this.show(d.title, d.body)
    }
    return d
  }
}
