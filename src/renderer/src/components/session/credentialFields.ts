/**
 * The credential fields the sign-in methods share (sign in, create account, API token), in the
 * app's language: called inside a `computed`, they follow a language switch.
 */
import { i18n } from '../../i18n'
import type { SignInFieldSpec } from './SignInFields.vue'

type More = Partial<SignInFieldSpec>
const t = (key: string) => i18n.global.t(key)

export const emailField = (testid: string, more: More = {}): SignInFieldSpec => ({
  key: 'email',
  label: t('signin.email'),
  testid,
  autocomplete: 'username',
  ...more
})

export const passwordField = (testid: string, more: More = {}): SignInFieldSpec => ({
  key: 'password',
  label: t('signin.password'),
  testid,
  secret: true,
  ...more
})

export const tokenField = (testid: string, more: More = {}): SignInFieldSpec => ({
  key: 'token',
  label: t('signin.apiToken'),
  testid,
  hint: t('signin.tokenHint'),
  secret: true,
  autocomplete: 'off',
  ...more
})
