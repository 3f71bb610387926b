import { z } from 'zod'
import { Embedded, StrictId, StrictTimestamp, tolerantObject } from './common'

/** The service's User (strict: every field service-api.md lists). */
export const UserStrict = z.object({
  id: StrictId,
  email: z.string(),
  name: z.string(),
  createdAt: StrictTimestamp,
  updatedAt: StrictTimestamp,
  deletedAt: StrictTimestamp.nullable(),
  profile: z.null(),
  Agent: z.null(),
  ApiToken: z.null(),
  Document: z.null()
})
export type UserStrict = z.infer<typeof UserStrict>

export const User = tolerantObject({
  email: z.string(),
  name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  deletedAt: z.string().nullable(),
  profile: z.unknown(),
  Agent: z.unknown(),
  ApiToken: z.unknown(),
  Document: z.unknown()
})
export type User = z.infer<typeof User>

export const EmbeddedUser = Embedded
