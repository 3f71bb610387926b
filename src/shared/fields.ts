/**
 * A resource's fields described once, each in its two forms: strict (what our service emits,
 * checked by its tests) and tolerant (what the client accepts from any server). `resourceSchemas`
 * builds both object schemas from one field list, so the two cannot drift apart.
 * Used by the resource modules; not re-exported from the index (generic names).
 */
import { z } from 'zod'
import { Embedded, JsonObject, StrictId, StrictTimestamp, tolerantObject } from './common'
import { jsonProblem } from './json'

/**
 * Whether a field's tolerant form reads `value` as that very value: an equal value, with nothing
 * dropped, changed or filled in. A list keeps an item that reads as itself as it came
 * (api/endpoints.ts `parseList`) instead of having zod copy it: zod builds a new object for
 * every object it reads, ~10 µs and a dozen objects an agent, most of main's own work on a
 * 10,000-agent list. `common.test.ts` holds each check to its tolerant form.
 */
export type AsIs = (value: unknown) => boolean

/**
 * A field: strict form, tolerant form (`null`: the tolerant schema leaves the field out), and
 * the check that the tolerant form would read a value as itself (none: items with the field are
 * always read by zod).
 */
export interface Field<S extends z.ZodType = z.ZodType, T extends z.ZodType | null = z.ZodType | null> {
  strict: S
  tolerant: T
  asIs?: AsIs | undefined
}
export const field = <S extends z.ZodType, T extends z.ZodType | null>(
  strict: S,
  tolerant: T,
  asIs?: AsIs
): Field<S, T> => ({
  strict,
  tolerant,
  asIs
})

export const isString: AsIs = (v) => typeof v === 'string'
export const isBoolean: AsIs = (v) => typeof v === 'boolean'
export const isNumber: AsIs = (v) => typeof v === 'number' && Number.isFinite(v)
export const orNull =
  (check: AsIs): AsIs =>
  (v) =>
    v === null || check(v)
/** An array whose every element reads as itself. */
export const listOf =
  (check: AsIs): AsIs =>
  (v) =>
    Array.isArray(v) && v.every(check)
/**
 * An object a loose zod object reads key for key: a plain one (zod's copy is plain) without an
 * own `__proto__` key (which zod leaves out of its copy).
 */
export function isLooseRecord(v: unknown): v is Record<string, unknown> {
  return (
    typeof v === 'object' &&
    v !== null &&
    Object.getPrototypeOf(v) === Object.prototype &&
    !Object.hasOwn(v, '__proto__')
  )
}
/** The value of an own key (undefined when absent: an optional field reads both alike). */
const own = (v: Record<string, unknown>, key: string): unknown => (Object.hasOwn(v, key) ? v[key] : undefined)
/** A loose object whose listed keys, where present, read as themselves. */
export const looseWith = (checks: Record<string, AsIs>): AsIs => {
  const keys = Object.keys(checks)
  const tests = Object.values(checks)
  return (v) => {
    if (!isLooseRecord(v)) return false
    for (let i = 0; i < keys.length; i++) {
      const x = own(v, keys[i] as string)
      if (x !== undefined && !(tests[i] as AsIs)(x)) return false
    }
    return true
  }
}
const isId: AsIs = (v) => typeof v === 'string' && v !== ''
const isJson: AsIs = (v) => isLooseRecord(v) && jsonProblem(v) === null

/** Plain text in both forms. */
export const text = field(z.string(), z.string(), isString)
/** A reference to another row: a non-empty id when strict, any string when tolerant. */
export const ref = field(StrictId, z.string(), isString)
/** A contract timestamp when strict, any string when tolerant. */
export const stamp = field(StrictTimestamp, z.string(), isString)
/** An embedded object (may be `{}`). */
export const embedded = field(Embedded, z.looseObject({}), isLooseRecord)
/** A field the service always sends as null; a client takes whatever comes. */
export const reserved = field(z.null(), z.unknown(), () => true)
export const json = field(JsonObject, JsonObject, isJson)
export const jsonOrNull = field(JsonObject.nullable(), JsonObject.nullable(), orNull(isJson))
/** One of an enum when strict; any string when tolerant (an odd server's value is kept). */
export const oneOf = <E extends z.ZodType>(values: E) => field(values, z.string(), isString)

/** The owner, as every user-owned resource carries it. */
export const owned = { userId: ref, user: embedded }
/** Creation and last-change times. */
export const stamps = { createdAt: stamp, updatedAt: stamp }

type StrictShape<F extends Record<string, Field>> = { id: typeof StrictId } & {
  [K in keyof F]: F[K]['strict']
}
type TolerantShape<F extends Record<string, Field>> = {
  [K in keyof F as F[K]['tolerant'] extends z.ZodType ? K : never]: Extract<F[K]['tolerant'], z.ZodType>
}

const readsAsIs = new WeakMap<z.ZodType, AsIs>()

/** The check that `schema` (a resource's tolerant schema) reads a value as itself, if it has one. */
export function asIsCheck(schema: z.ZodType): AsIs | undefined {
  return readsAsIs.get(schema)
}

/**
 * The strict schema (`id` first, then the fields in order), the tolerant one (see
 * tolerantObject), and the tolerant one's check that an item reads as itself (when every
 * tolerant field has one; `asIsCheck` finds it from the schema).
 */
export function resourceSchemas<F extends Record<string, Field>>(fields: F) {
  const strict: Record<string, z.ZodType> = { id: StrictId }
  const tolerant: Record<string, z.ZodType> = {}
  const checks: Record<string, AsIs> = {}
  let checked = true
  for (const [key, f] of Object.entries(fields)) {
    strict[key] = f.strict
    if (!f.tolerant) continue
    tolerant[key] = f.tolerant
    if (f.asIs) checks[key] = f.asIs
    else checked = false
  }
  const read = tolerantObject(tolerant as TolerantShape<F>)
  const fieldsAsIs = looseWith(checks)
  // `id` is required: a non-empty string (a number would become one, so it is not read as itself).
  const asIs: AsIs | undefined = checked
    ? (v) => fieldsAsIs(v) && isId(own(v as Record<string, unknown>, 'id'))
    : undefined
  if (asIs) readsAsIs.set(read, asIs)
  return { strict: z.object(strict as StrictShape<F>), tolerant: read, asIs }
}

/** A resource's name as a create/update request takes it: trimmed, not empty, at most `max` characters. */
export const nameText = (max: number) =>
  z.string().trim().min(1, 'Enter a name').max(max, `At most ${max} characters`)
