/**
 * Bounds on what a request may carry: free-form JSON values (`metadata`, a document's
 * `authorization` and `splitter`) at most 256 KiB serialised and 32 levels deep, and a whole IPC
 * input at most 1 MiB. Measured without recursion and without serialising, stopping as soon as a
 * limit is passed, so a 20 MiB or 50,000-level value costs next to nothing to refuse.
 */
import { JsonObject } from './common'

export const MAX_JSON_BYTES = 256 * 1024
export const MAX_JSON_DEPTH = 32
/** A whole IPC input (the largest legitimate one, a prompt template of 100,000 characters, is far below). */
export const MAX_IPC_INPUT_BYTES = 1024 * 1024
/** Nesting of a whole IPC input: a bounded JSON value inside a request object, with room to spare. */
export const MAX_IPC_INPUT_DEPTH = 40

export interface JsonMeasure {
  /** About the length of the value as JSON text; counting stops just past `maxBytes`. */
  bytes: number
  tooLarge: boolean
  tooDeep: boolean
}

/** Measures `value` as JSON (about its serialised length, and its nesting: a top-level object is 1). */
export function measureJson(value: unknown, maxBytes: number, maxDepth: number): JsonMeasure {
  let bytes = 0
  const stack: [unknown, number][] = [[value, 1]]
  const out = (tooLarge: boolean, tooDeep: boolean): JsonMeasure => ({ bytes, tooLarge, tooDeep })
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number]
    if (typeof v === 'string') bytes += v.length + 2
    else if (typeof v === 'number' || typeof v === 'bigint') bytes += String(v).length
    else if (typeof v === 'boolean') bytes += 5
    else if (typeof v !== 'object' || v === null) bytes += 4
    else if (depth > maxDepth) return out(false, true)
    else if (ArrayBuffer.isView(v)) bytes += v.byteLength
    else if (v instanceof ArrayBuffer) bytes += v.byteLength
    else if (Array.isArray(v)) {
      bytes += 2
      for (let i = 0; i < v.length; i++) {
        bytes += 1
        if (bytes > maxBytes) return out(true, false)
        stack.push([v[i] as unknown, depth + 1])
      }
    } else {
      bytes += 2
      for (const key in v) {
        if (!Object.prototype.hasOwnProperty.call(v, key)) continue
        bytes += key.length + 4
        if (bytes > maxBytes) return out(true, false)
        stack.push([(v as Record<string, unknown>)[key], depth + 1])
      }
    }
    if (bytes > maxBytes) return out(true, false)
  }
  return out(false, false)
}

function kib(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MiB` : `${Math.round(n / 1024)} KiB`
}

/** The words for a value that is over a limit, or null. */
export function boundsMessage(m: JsonMeasure, maxBytes: number, maxDepth: number): string | null {
  if (m.tooDeep) return `Nested too deeply: at most ${maxDepth} levels`
  if (m.tooLarge) return `Too large: at most ${kib(maxBytes)}`
  return null
}

/** A JSON object of at most 256 KiB and 32 levels (request fields such as `metadata`). */
export const BoundedJsonObject = JsonObject.superRefine((v, ctx) => {
  const message = boundsMessage(
    measureJson(v, MAX_JSON_BYTES, MAX_JSON_DEPTH),
    MAX_JSON_BYTES,
    MAX_JSON_DEPTH
  )
  if (message) ctx.addIssue({ code: 'custom', message })
})

/**
 * Why a whole IPC input is refused before it is parsed (too large or too deep), in words, or null.
 * Checked on the raw input at the one entry of every call (core.invoke).
 */
export function ipcInputRefusal(input: unknown): string | null {
  const m = measureJson(input, MAX_IPC_INPUT_BYTES, MAX_IPC_INPUT_DEPTH)
  if (m.tooDeep)
    return `The request is nested too deeply (more than ${MAX_IPC_INPUT_DEPTH} levels): nothing was saved`
  if (m.tooLarge) return `The request is too large (more than ${kib(MAX_IPC_INPUT_BYTES)}): nothing was saved`
  return null
}
