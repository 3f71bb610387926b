import { z } from 'zod'
import { User, UserStrict } from './user'

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export const SignInRequest = z.object({
  email: z.string().trim().regex(EMAIL_RE, 'Enter a valid e-mail address'),
  password: z.string().min(1, 'Enter your password').max(1024)
})
export type SignInRequest = z.infer<typeof SignInRequest>

export const SignUpRequest = z.object({
  email: z.string().trim().regex(EMAIL_RE, 'Enter a valid e-mail address'),
  password: z.string().min(8, 'Use at least 8 characters').max(1024),
  name: z.string().trim().min(1, 'Enter a name').max(200)
})
export type SignUpRequest = z.infer<typeof SignUpRequest>

export const SignInResponseStrict = z.object({ token: z.string(), user: UserStrict })
export const SignInResponse = z.looseObject({
  token: z.string().min(1),
  user: User.optional().catch(undefined)
})
export type SignInResponse = z.infer<typeof SignInResponse>
