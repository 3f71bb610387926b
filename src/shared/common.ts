/**
 * Building blocks shared by every resource module: ids, timestamps, enums, the envelope,
 * and the helper that turns a strict object schema into the tolerant flavour the client uses.
 * This folder is the contract only: no Node, Electron or DOM imports.
 */
import { z } from 'zod'
import { jsonProblem } from './json'
import { AGENT_TYPES, DOCUMENT_TYPES, TOOL_TYPES } from './values'

/** Opaque identifier. The client never parses its shape; a number from an odd server becomes a string. */
export const Id = z.union([z.string().min(1), z.number()]).transform((v) => String(v))
/** Ids are short: at most 256 characters (an IPC input's ids are bounded by this). */
export const MAX_ID_LENGTH = 256
export const StrictId = z
  .string()
  .min(1)
  .max(MAX_ID_LENGTH, `At most ${MAX_ID_LENGTH} characters`)
  // A lone UTF-16 surrogate cannot be put in a URL (encodeURIComponent throws).
  .refine((s) => !/\p{Cs}/u.test(s), 'Contains a character that is not valid text')

/** `YYYY-MM-DDThh:mm:ss.ffffff+00:00`, exactly as the service emits it. */
export const TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/
export const StrictTimestamp = z.string().regex(TIMESTAMP_RE, 'Expected YYYY-MM-DDThh:mm:ss.ffffff+00:00')

/** Formats a Date the way the service contract requires (six fractional digits, +00:00). */
export function formatTimestamp(date: Date, micros = 0): string {
  const iso = date.toISOString() // 2024-01-02T03:04:05.678Z
  const ms = iso.slice(20, 23)
  const frac = ms + String(Math.max(0, Math.min(999, micros))).padStart(3, '0')
  return `${iso.slice(0, 19)}.${frac}+00:00`
}

export { AGENT_TYPES, DOCUMENT_TYPES, TOOL_TYPES } from './values'

export const DocumentType = z.enum(DOCUMENT_TYPES)
export const AgentType = z.enum(AGENT_TYPES)
export const ToolType = z.enum(TOOL_TYPES)
export type DocumentType = z.infer<typeof DocumentType>
export type AgentType = z.infer<typeof AgentType>
export type ToolType = z.infer<typeof ToolType>

/** Adds an issue when a value is not plain JSON data within the limits of ./json. */
export function checkJson(
  value: unknown,
  ctx: { addIssue(issue: { code: 'custom'; message: string }): void }
) {
  const problem = jsonProblem(value)
  if (problem) ctx.addIssue({ code: 'custom', message: problem })
}

/** A JSON object (not an array, not null) of plain JSON data, bounded in depth and size. */
export const JsonObject = z.record(z.string(), z.unknown()).superRefine(checkJson)
export type JsonObject = z.infer<typeof JsonObject>

/** An embedded object that may be empty (`{}`). */
export const Embedded = z.looseObject({})

/**
 * Tolerant flavour of an object shape: every field optional, a field of an unexpected shape
 * (or null) becomes `undefined` instead of failing, and unknown fields are kept.
 * `id` stays required: it is the one thing the client cannot do without.
 *
 * An item is first read without the per-field fallbacks (each `catch` wraps its field in one
 * more parse step and two objects): where every field is as described, which is every item of a
 * well-behaved server, that gives exactly what the tolerant reading gives, for less work and
 * garbage (a 10,000-item list). An item with an odd field is then read again tolerantly.
 */
type TolerantShape<T extends z.ZodRawShape> = {
  [K in keyof T]: z.ZodCatch<z.ZodOptional<T[K]>>
}
type ExactShape<T extends z.ZodRawShape> = { [K in keyof T]: z.ZodOptional<T[K]> }
export function tolerantObject<T extends z.ZodRawShape>(shape: T) {
  const tolerant: Record<string, z.ZodType> = {}
  const exact: Record<string, z.ZodType> = {}
  for (const [key, schema] of Object.entries(shape)) {
    const optional = (schema as z.ZodType).optional()
    exact[key] = optional
    tolerant[key] = optional.catch(undefined)
  }
  const read = z.looseObject({ id: Id, ...(tolerant as TolerantShape<T>) })
  return z.union([z.looseObject({ id: Id, ...(exact as ExactShape<T>) }), read])
}

/** True for an absolute http: or https: URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value)
    return u.protocol === 'http:' || u.protocol === 'https:'
  } catch {
    return false
  }
}

/** An enum value as a client shows it: a known value, or whatever string an odd server sent. */
export const LooseEnumString = z.string()

// ---------------------------------------------------------------------------------------------
// Envelope and error body
// ---------------------------------------------------------------------------------------------

export const ErrorCode = z.enum([
  'bad_request',
  'validation_failed',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'internal'
])
export type ErrorCode = z.infer<typeof ErrorCode>

export const FieldIssue = z.object({ field: z.string(), message: z.string() })
export type FieldIssue = z.infer<typeof FieldIssue>

export const ErrorBody = z.object({
  code: z.string(),
  message: z.string(),
  details: z.array(FieldIssue).optional()
})
export type ErrorBody = z.infer<typeof ErrorBody>

/** Our service's failure envelope. */
export const ErrorEnvelope = z.object({ success: z.literal(false), data: z.null(), error: ErrorBody })
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>

/** Success envelope around a data schema. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data })
}
/** The envelope as any server may send it: `success` plus `data`, extra keys allowed. */
export const LooseEnvelope = z.looseObject({ success: z.boolean(), data: z.unknown() })

/** Query options for list operations (local service: newest first, optional skip/take). */
export const ListQuery = z.object({
  skip: z.coerce.number().int().min(0).optional(),
  take: z.coerce.number().int().min(1).max(10_000).optional()
})
