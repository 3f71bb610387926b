import { computed, reactive, ref } from 'vue'
import type { AppErrorData } from '../../../../shared/errors'
import { useSessionStore } from '../../stores/session'
import { toAppError } from '../../composables/useErrors'
import { CallScope, withCallScope } from '../../composables/callScope'
import { desk } from '../../desk'
import { i18n } from '../../i18n'

export type SignInBusy = null | 'local' | 'password' | 'token' | 'signup' | 'profile'

/** "Not authenticated" from a sign-in means wrong credentials; say so. */
function humanSignInError(e: AppErrorData): AppErrorData {
  if (e.kind === 'unauthorized' || e.kind === 'forbidden') {
    const generic = !e.message || /not authenticated|unauthori[sz]ed|forbidden/i.test(e.message)
    return { ...e, message: generic ? i18n.global.t('signin.wrongCredentials') : e.message }
  }
  return e
}

/**
 * The state the sign-in methods share (one SignInForm makes it and hands it to each): which one is
 * busy, the error and field errors, the typed credentials (e-mail and password are shared by the
 * sign-in and sign-up tabs), the chosen server profile; `run` starts a session and reports how it
 * went. The password and token are forgotten once signed in.
 *
 * A running method can be cancelled (`cancel`: its request to the server is aborted), and starting
 * another method (the Local workspace while a server does not answer) cancels it first.
 */
export function useSignIn(onSignedIn: () => void) {
  const session = useSessionStore()
  const busy = ref<SignInBusy>(null)
  const error = ref<AppErrorData | null>(null)
  const fieldErrors = ref<Record<string, string>>({})
  const creds = reactive({ email: '', password: '', token: '', name: '' })
  const profileId = ref<string | null>(null)
  const remoteProfiles = computed(() => session.profiles.filter((p) => p.kind === 'remote'))

  let running: CallScope | null = null

  /** Cancels the method that runs now (its call answers 'cancelled'; nothing is shown as an error). */
  async function cancel(): Promise<void> {
    const scope = running
    running = null
    busy.value = null
    if (scope) await scope.cancel(desk())
  }

  async function run(kind: NonNullable<SignInBusy>, fn: () => Promise<unknown>, mapAuth = true) {
    if (running) await cancel()
    const scope = new CallScope()
    running = scope
    busy.value = kind
    error.value = null
    try {
      await withCallScope(scope, fn)
      if (running !== scope) return
      creds.password = ''
      creds.token = ''
      onSignedIn()
    } catch (e) {
      if (running !== scope) return
      const err = toAppError(e)
      if (err.kind === 'cancelled') return
      error.value = mapAuth ? humanSignInError(err) : err
      const fe: Record<string, string> = {}
      for (const f of err.fields ?? []) fe[f.field] = f.message
      fieldErrors.value = fe
    } finally {
      if (running === scope) {
        running = null
        busy.value = null
      }
    }
  }

  /** The chosen server profile's id, or null with an error saying to add one. */
  function needProfile(): string | null {
    if (!profileId.value) {
      error.value = { kind: 'validation', message: i18n.global.t('signin.addServerFirst') }
      return null
    }
    return profileId.value
  }

  /** Shows a schema's refusal on the fields. */
  function issues(r: { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } }) {
    const fe: Record<string, string> = {}
    for (const i of r.error.issues) fe[i.path.map(String).join('.')] ??= i.message
    fieldErrors.value = fe
  }

  /** The schema's answer for `value`, or null with its refusal shown on the fields. */
  function parsed<V>(
    schema: {
      safeParse(
        v: unknown
      ):
        | { success: true; data: V }
        | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } }
    },
    value: unknown
  ): V | null {
    const r = schema.safeParse(value)
    if (r.success) return r.data
    issues(r)
    return null
  }

  /**
   * A method on the chosen server: `prepare` checks the input (null stops, its errors shown), then
   * `send` starts the session.
   */
  function submitTo<V>(
    kind: NonNullable<SignInBusy>,
    prepare: () => V | null,
    send: (profileId: string, input: V) => Promise<unknown>,
    mapAuth = true
  ) {
    const pid = needProfile()
    if (!pid) return
    const input = prepare()
    if (input === null) return
    fieldErrors.value = {}
    return run(kind, () => send(pid, input), mapAuth)
  }

  function clearErrors(): void {
    error.value = null
    fieldErrors.value = {}
  }

  return {
    session,
    busy,
    error,
    fieldErrors,
    creds,
    profileId,
    remoteProfiles,
    run,
    cancel,
    needProfile,
    issues,
    parsed,
    submitTo,
    clearErrors
  }
}

export type SignIn = ReturnType<typeof useSignIn>
