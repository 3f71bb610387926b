import { z } from 'zod'
import { Embedded, StrictTimestamp } from './common'
import { field, reserved, resourceSchemas, stamps, text } from './fields'

const user = resourceSchemas({
  email: text,
  name: text,
  ...stamps,
  deletedAt: field(StrictTimestamp.nullable(), z.string().nullable()),
  profile: reserved,
  Agent: reserved,
  ApiToken: reserved,
  Document: reserved
})
/** The service's User (strict: every field service-api.md lists). */
export const UserStrict = user.strict
export type UserStrict = z.infer<typeof UserStrict>

export const User = user.tolerant
export type User = z.infer<typeof User>

export const EmbeddedUser = Embedded
