import { z } from 'zod'

/** The id the renderer gives a call it may cancel (see `calls.cancel` in ./ipc). */
export const CallId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'Not a call id')

/** Options the renderer may pass with any call: `id` makes it cancellable with `calls.cancel`. */
export interface CallOptions {
  id?: string
}
