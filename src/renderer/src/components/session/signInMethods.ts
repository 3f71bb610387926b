/**
 * The ways to start a session on a server profile, each described once: its tab, fields, button
 * and what it sends. `SignInForm` shows one tab per method through `SignInMethod`; adding a method
 * is one entry here. Words are read when shown (`i18n.global.t` inside the render), so they follow
 * a language switch.
 */
import { SignInRequest, SignUpRequest } from '../../../../shared/auth'
import { i18n } from '../../i18n'
import { toAppError } from '../../composables/useErrors'
import type { SignIn, SignInBusy } from './useSignIn'
import type { SignInFieldSpec } from './SignInFields.vue'
import { emailField, passwordField, tokenField } from './credentialFields'

export interface SignInMethodSpec {
  kind: NonNullable<SignInBusy>
  /** The tab's title. */
  tab: () => string
  fields: () => SignInFieldSpec[]
  /** The button's test id and words. */
  testid: string
  label: () => string
  /** The button submits the form (a password manager sees a sign-in form). */
  submit?: boolean
  /** Enter in a field marked `enterSends` sends. */
  enter?: boolean
  /** Offered only on the sign-in screen, not in the "session ended" modal. */
  newAccount?: boolean
  send: () => unknown
}

const t = (key: string) => i18n.global.t(key)

/** E-mail and password (validated with SignInRequest). */
const password = (s: SignIn): SignInMethodSpec => ({
  kind: 'password',
  tab: () => t('signin.tabPassword'),
  fields: () => [
    emailField('signin-email', { placeholder: t('signin.emailPlaceholder') }),
    passwordField('signin-password', { autocomplete: 'current-password', enterSends: true })
  ],
  testid: 'signin-submit',
  label: () => t('signin.signIn'),
  submit: true,
  enter: true,
  send: () =>
    s.submitTo(
      'password',
      () => s.parsed(SignInRequest, { email: s.creds.email, password: s.creds.password }),
      (pid, v) => s.session.signIn(pid, v.email, v.password)
    )
})

/** An API token made on the server stands for the account; a refused one is said in words. */
const token = (s: SignIn): SignInMethodSpec => {
  function pasted(): string | null {
    const value = s.creds.token.trim()
    if (!value) s.fieldErrors.value = { token: t('signin.pasteToken') }
    return value || null
  }
  async function send(pid: string, value: string): Promise<void> {
    try {
      await s.session.signInWithToken(pid, value)
    } catch (e) {
      const err = toAppError(e)
      if (err.kind === 'unauthorized' || err.kind === 'forbidden') {
        throw { ...err, message: t('signin.tokenRefused') }
      }
      throw e
    }
  }
  return {
    kind: 'token',
    tab: () => t('signin.tabToken'),
    fields: () => [tokenField('signin-token', { enterSends: true })],
    testid: 'signin-token-submit',
    label: () => t('signin.signInWithToken'),
    enter: true,
    send: () => s.submitTo('token', pasted, send)
  }
}

/** "Create account" (validated with SignUpRequest), then signed in. */
const signUp = (s: SignIn): SignInMethodSpec => ({
  kind: 'signup',
  tab: () => t('signin.tabSignUp'),
  fields: () => [
    { key: 'name', label: t('signin.name'), testid: 'signup-name' },
    emailField('signup-email'),
    passwordField('signup-password', { hint: t('signin.passwordHint'), autocomplete: 'new-password' })
  ],
  testid: 'signup-submit',
  label: () => t('signin.createAccount'),
  newAccount: true,
  send: () =>
    s.submitTo(
      'signup',
      () => s.parsed(SignUpRequest, { email: s.creds.email, password: s.creds.password, name: s.creds.name }),
      (pid, v) => s.session.signUp(pid, v),
      false
    )
})

/** The methods, in the order of their tabs. */
export const signInMethods = (s: SignIn): SignInMethodSpec[] => [password(s), token(s), signUp(s)]
