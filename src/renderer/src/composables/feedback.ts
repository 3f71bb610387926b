/**
 * Toasts and dialogs without their code in the first paint. naive-ui's notification, message and
 * dialog providers live in FeedbackHost (its own chunk, mounted beside the shell as the first view
 * paints), which hands their APIs here; useNotify, useUndoable and useConfirmDelete take them at
 * the moment they show something. A call made before the host is there waits for it (the first
 * milliseconds of a start), so nothing is lost. No naive-ui code is imported here, types only.
 */
import type { DialogApi, MessageApi, NotificationApi } from 'naive-ui'

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

/** The APIs, at once when the host is mounted, else as soon as it is. */
export const feedback = (): Promise<FeedbackApis> => (current ? Promise.resolve(current) : ready)
