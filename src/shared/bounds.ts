/**
 * Bounds on a whole IPC input: at most 1 MiB and 40 levels (a bounded JSON field inside a request
 * object, with room to spare), checked on the raw input at the one entry of every call
 * (core.invoke) before zod parses it. Free-form JSON fields have their own, tighter limits
 * (./json: 256 KiB, 32 levels), checked by the `JsonObject` schema.
 */
import { jsonFault, sizeText } from './json'
import { MAX_TRANSFER_BYTES } from './transfer'

/** A whole IPC input (the largest legitimate one, a prompt template of 100,000 characters, is far below). */
export const MAX_IPC_INPUT_BYTES = 1024 * 1024
export const MAX_IPC_INPUT_DEPTH = 40
/** Channels that take a whole file's text (an import): their own, larger bound. */
export const LARGE_INPUT_CHANNELS: Readonly<Record<string, number>> = {
  'transfer.preview': MAX_TRANSFER_BYTES + 1024,
  'transfer.import': MAX_TRANSFER_BYTES + 1024
}

/** Why a whole IPC input is refused before it is parsed (too large or too deep), in words, or null. */
export function ipcInputRefusal(input: unknown, maxBytes = MAX_IPC_INPUT_BYTES): string | null {
  // What is not plain JSON is left to the schemas, which name the field.
  const fault = jsonFault(input, MAX_IPC_INPUT_DEPTH, maxBytes)
  if (fault === 'deep')
    return `The request is nested too deeply (more than ${MAX_IPC_INPUT_DEPTH} levels): nothing was saved`
  if (fault === 'large')
    return `The request is too large (more than ${sizeText(maxBytes)}): nothing was saved`
  return null
}
