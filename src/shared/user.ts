import { z } from 'zod'
import { Embedded, StrictTimestamp } from './common'
import { field, isString, orNull, reserved, resourceSchemas, stamps, text } from './fields'

/** The service's User (strict: every field service-api.md lists). */
export const { strict: UserStrict, tolerant: User } = resourceSchemas({
  email: text,
  name: text,
  ...stamps,
  deletedAt: field(StrictTimestamp.nullable(), z.string().nullable(), orNull(isString)),
  profile: reserved,
  Agent: reserved,
  ApiToken: reserved,
  Document: reserved
})
export type UserStrict = z.infer<typeof UserStrict>
export type User = z.infer<typeof User>

export const EmbeddedUser = Embedded
