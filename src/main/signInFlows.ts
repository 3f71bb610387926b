/**
 * How each sign-in method gets its credential: the token, the user it belongs to and the origin
 * that issued it. Nothing here starts a session (SessionManager.begin does, with the result).
 */
import { authHeaderStoreFor, capabilityStoreFor } from './api/capabilities'
import { createApiClient, type ApiClient } from './api/client'
import { AppError } from '../shared/errors'
import { addressAllowed, CLEARTEXT_MESSAGE } from '../shared/profileAddress'
import type { Profile } from '../shared/ipc'
import type { LocalWorkspace } from './localWorkspace'
import type { ProfileRegistry, StoredUser } from './profiles'
import { userFor } from './sessionUser'
import { originOf } from './tokenOrigin'

export interface SignInDeps {
  profiles: ProfileRegistry
  local: LocalWorkspace
  fetchTimeoutMs: number
}

export interface Credential {
  user: StoredUser
  token: string
  /** The origin that issued the token (the only one it is ever sent to). */
  origin: string | null
}

export function profileOrThrow(profiles: ProfileRegistry, profileId: string): Profile {
  const p = profiles.get(profileId)
  if (!p) {
    throw new AppError({
      kind: 'validation',
      message: 'Choose a server: that profile no longer exists.',
      fields: [{ field: 'profileId', message: 'Unknown server profile' }]
    })
  }
  // A profile saved before the cleartext rule: no password or token over plain http to it.
  if (p.kind === 'remote' && !addressAllowed(p.baseUrl, p.insecure)) {
    throw new AppError({
      kind: 'validation',
      message: `${CLEARTEXT_MESSAGE} Edit the server to continue.`,
      fields: [{ field: 'baseUrl', message: 'Use https://' }]
    })
  }
  return p
}

function tempClient(deps: SignInDeps, profile: Profile, baseUrl: string, token: string | null): ApiClient {
  return createApiClient({
    baseUrl,
    getToken: () => token,
    tokenOrigin: () => originOf(baseUrl),
    capabilities: capabilityStoreFor(deps.profiles, profile.id),
    authHeader: authHeaderStoreFor(deps.profiles, profile.id),
    timeoutMs: deps.fetchTimeoutMs
  })
}

/** The Local workspace: a fresh token minted in-process by its service. */
export async function localCredential(deps: SignInDeps): Promise<Credential> {
  const { token, user } = await deps.local.session()
  const stored: StoredUser = { ...user, authMethod: 'password', idKnown: true, storeKey: user.id }
  return { user: stored, token, origin: originOf((await deps.local.ensure()).url) }
}

export async function passwordCredential(
  deps: SignInDeps,
  profile: Profile,
  email: string,
  password: string
): Promise<Credential> {
  const res = await tempClient(deps, profile, profile.baseUrl, null).signIn({ email, password })
  const user = await userFor(
    () => tempClient(deps, profile, profile.baseUrl, res.token),
    res.token,
    res.user ?? null,
    email,
    'password'
  )
  return { user, token: res.token, origin: originOf(profile.baseUrl) }
}

export async function signUpCredential(
  deps: SignInDeps,
  profile: Profile,
  input: { email: string; password: string; name: string }
): Promise<Credential> {
  const { email, password, name } = input
  const client = tempClient(deps, profile, profile.baseUrl, null)
  const res = await client.signUp({ email, password, name })
  let token = res.token ?? null
  let user = res.user ?? null
  if (!token) {
    const signedIn = await client.signIn({ email, password })
    token = signedIn.token
    user = signedIn.user ?? user
  }
  const known = token
  const stored = await userFor(
    () => tempClient(deps, profile, profile.baseUrl, known),
    known,
    user,
    email,
    'password',
    name
  )
  return { user: stored, token: known, origin: originOf(profile.baseUrl) }
}

/** An API token: accepted only after one authenticated call answered with a success envelope. */
export async function tokenCredential(
  deps: SignInDeps,
  profile: Profile,
  token: string
): Promise<Credential> {
  const baseUrl = profile.kind === 'local' ? (await deps.local.ensure()).url : profile.baseUrl
  const user = await userFor(
    () => tempClient(deps, profile, baseUrl, token),
    token,
    null,
    null,
    'apiToken',
    null
  )
  return { user, token, origin: originOf(baseUrl) }
}
