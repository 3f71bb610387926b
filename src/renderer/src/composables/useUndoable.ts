/**
 * Undo before it is sent: a delete (or unlink) hides its item at once and shows a toast with Undo
 * for a few seconds; only then is the request made (online, or through the outbox offline — the
 * same call as without undo). Undo brings the item back and nothing is sent. Leaving the window
 * while a change waits sends it at once, so nothing the user did is silently dropped.
 */
import { h, shallowRef } from 'vue'
import { NButton, type NotificationReactive } from 'naive-ui'
import { feedback } from './feedback'
import { i18n } from '../i18n'

export const UNDO_MS = 6000

/** Keys (`agents:<id>`, `agentDocuments:<id>`…) of items whose removal waits: lists hide them. */
export const pendingRemoval = shallowRef<ReadonlySet<string>>(new Set())
const flushers = new Map<string, () => void>()

function mark(key: string, on: boolean): void {
  const next = new Set(pendingRemoval.value)
  if (on) next.add(key)
  else next.delete(key)
  pendingRemoval.value = next
}

/** An item's key in `pendingRemoval`; `pendingKey(kind, '')` begins every key of its kind. */
const pendingKey = (kind: string, id: string) => `${kind}:${id}`

/** Whether an item's removal waits (reactive): hide it. */
export const removalPending = (kind: string, id: string): boolean =>
  pendingRemoval.value.has(pendingKey(kind, id))

/**
 * A list without the items whose removal waits (reactive); the same array when none of its kind
 * waits, as is nearly always so. One pass over the few waiting keys, not a key built and looked up
 * per item: for 100,000 agents that was ~190 ms and 100,000 short-lived strings a list change.
 */
export function withoutPending<T extends { id: string }>(kind: string, items: T[]): T[] {
  const prefix = pendingKey(kind, '')
  const ids = new Set<string>()
  for (const key of pendingRemoval.value) if (key.startsWith(prefix)) ids.add(key.slice(prefix.length))
  return ids.size ? items.filter((t) => !ids.has(t.id)) : items
}

/** Sends every waiting change now (the window is closing). */
export function flushPending(): void {
  for (const f of [...flushers.values()]) f()
}
if (typeof window !== 'undefined') window.addEventListener('beforeunload', flushPending)

export interface UndoableChange<R> {
  kind: string
  id: string
  /** "Tool “Alpha” deleted". */
  message: string
  /** Makes the change (the request); its result goes to `done`. */
  run: () => Promise<R>
  done?: (r: R) => void
  failed?: (e: unknown) => void
  ms?: number
}

export function useUndoable() {
  /** Hides the item, offers Undo, then makes the change. Resolves true when it was made. */
  function later<R>(c: UndoableChange<R>): Promise<boolean> {
    const key = pendingKey(c.kind, c.id)
    mark(key, true)
    return new Promise<boolean>((resolve) => {
      let over = false
      let toast: NotificationReactive | null = null
      const finish = (send: boolean) => {
        if (over) return
        over = true
        clearTimeout(timer)
        flushers.delete(key)
        toast?.destroy()
        if (!send) {
          mark(key, false)
          resolve(false)
          return
        }
        c.run()
          .then((r) => {
            c.done?.(r)
            resolve(true)
          })
          .catch((e: unknown) => {
            c.failed?.(e)
            resolve(false)
          })
          .finally(() => mark(key, false))
      }
      const timer = setTimeout(() => finish(true), c.ms ?? UNDO_MS)
      flushers.set(key, () => finish(true))
      void feedback().then(({ notification }) => {
        if (over) return
        toast = notification.create({
          content: c.message,
          duration: c.ms ?? UNDO_MS,
          closable: false,
          action: () =>
            h(
              NButton,
              { size: 'small', 'data-testid': 'undo-button', onClick: () => finish(false) },
              { default: () => i18n.global.t('common.undo') }
            )
        })
      })
    })
  }
  return { later }
}
