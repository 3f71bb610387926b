/**
 * A resource's fields described once, each in its two forms: strict (what our service emits,
 * checked by its tests) and tolerant (what the client accepts from any server). `resourceSchemas`
 * builds both object schemas from one field list, so the two cannot drift apart.
 * Used by the resource modules; not re-exported from the index (generic names).
 */
import { z } from 'zod'
import { Embedded, JsonObject, StrictId, StrictTimestamp, tolerantObject } from './common'

/** A field: strict form, and tolerant form (`null`: the tolerant schema leaves the field out). */
export interface Field<S extends z.ZodType = z.ZodType, T extends z.ZodType | null = z.ZodType | null> {
  strict: S
  tolerant: T
}
export const field = <S extends z.ZodType, T extends z.ZodType | null>(
  strict: S,
  tolerant: T
): Field<S, T> => ({
  strict,
  tolerant
})

/** Plain text in both forms. */
export const text = field(z.string(), z.string())
/** A reference to another row: a non-empty id when strict, any string when tolerant. */
export const ref = field(StrictId, z.string())
/** A contract timestamp when strict, any string when tolerant. */
export const stamp = field(StrictTimestamp, z.string())
/** An embedded object (may be `{}`). */
export const embedded = field(Embedded, z.looseObject({}))
/** A field the service always sends as null; a client takes whatever comes. */
export const reserved = field(z.null(), z.unknown())
export const json = field(JsonObject, JsonObject)
export const jsonOrNull = field(JsonObject.nullable(), JsonObject.nullable())
/** One of an enum when strict; any string when tolerant (an odd server's value is kept). */
export const oneOf = <E extends z.ZodType>(values: E) => field(values, z.string())

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

/** The strict schema (`id` first, then the fields in order) and the tolerant one (see tolerantObject). */
export function resourceSchemas<F extends Record<string, Field>>(fields: F) {
  const strict: Record<string, z.ZodType> = { id: StrictId }
  const tolerant: Record<string, z.ZodType> = {}
  for (const [key, f] of Object.entries(fields)) {
    strict[key] = f.strict
    if (f.tolerant) tolerant[key] = f.tolerant
  }
  return {
    strict: z.object(strict as StrictShape<F>),
    tolerant: tolerantObject(tolerant as TolerantShape<F>)
  }
}

/** A resource's name as a create/update request takes it: trimmed, not empty, at most `max` characters. */
export const nameText = (max: number) =>
  z.string().trim().min(1, 'Enter a name').max(max, `At most ${max} characters`)
