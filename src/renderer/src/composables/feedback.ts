/**
 * Toasts and dialogs without their code in the first paint. naive-ui's notification, message and
 * dialog providers live in FeedbackHost (its own chunk, mounted beside the shell once the start has
 * settled, see afterStart.ts), which hands their APIs here; useNotify, useUndoable and
 * useConfirmDelete take them at the moment they show something. A call made before the host is
 * there asks for it and waits (the first moments of a start), so nothing is lost. No naive-ui code
 * is imported here, types only.
 */
import type { DialogApi, MessageApi, NotificationApi } from 'naive-ui'
import { needNow } from './afterStart'

export interface FeedbackApis {
  dialog: DialogApi
  message: MessageApi
  notification: NotificationApi
}

let current: FeedbackApis | null = null
let arrive: (apis: FeedbackApis) => void = () => undefined
let ready = new Promise<FeedbackApis>((resolve) => (arrive = resolve))

/** The host's APIs; the returned function withdraws them (the host unmounts). */
export function provideFeedback(apis: FeedbackApis): () => void {
  current = apis
  arrive(apis)
  return () => {
    if (current !== apis) return
    current = null
    ready = new Promise<FeedbackApis>((resolve) => (arrive = resolve))
  }
}

/** The APIs, at once when the host is mounted, else as soon as it is (asked for now). */
export function feedback(): Promise<FeedbackApis> {
  if (current) return Promise.resolve(current)
  needNow()
  return ready
}
