import { z } from 'zod'
import { owned, resourceSchemas, stamp, text } from './fields'

export const { strict: ApiTokenStrict, tolerant: ApiToken } = resourceSchemas({
  ...owned,
  description: text,
  token: text,
  createdAt: stamp
})
export type ApiTokenStrict = z.infer<typeof ApiTokenStrict>
export type ApiToken = z.infer<typeof ApiToken>

/** What the renderer gets for a listed/cached token: never the value, only a masked preview. */
export type ApiTokenView = { [K in keyof ApiToken as K extends 'token' ? never : K]: ApiToken[K] } & {
  tokenPreview: string | null
}

export { maskToken } from './values'

export const ApiTokenCreate = z.object({
  description: z.string().trim().min(1, 'Describe what the token is for').max(500, 'At most 500 characters')
})
export type ApiTokenCreate = z.input<typeof ApiTokenCreate>
