/**
 * Sign-out on the server (issue 12 item 6): where the server offers `POST /auth/sign-out` (an
 * extra operation, 'session.signOut'), ask it to revoke the token. Best effort with a short
 * deadline: a server that does not offer it, refuses it, or never answers does not hold sign-out.
 */
import { AppError } from '../shared/errors'
import { authHeaderStoreFor, capabilityStoreFor } from './api/capabilities'
import { createApiClient } from './api/client'
import type { ProfileRegistry } from './profiles'

export interface ServerSignOut {
  profiles: ProfileRegistry
  profileId: string
  baseUrl: string
  token: string
  tokenOrigin: string | null
  timeoutMs: number
  log: (message: string, err?: unknown) => void
}

export async function signOutOnServer(o: ServerSignOut): Promise<void> {
  const client = createApiClient({
    baseUrl: o.baseUrl,
    getToken: () => o.token,
    tokenOrigin: () => o.tokenOrigin,
    capabilities: capabilityStoreFor(o.profiles, o.profileId),
    authHeader: authHeaderStoreFor(o.profiles, o.profileId),
    timeoutMs: o.timeoutMs,
    getRetries: 0
  })
  let timer: ReturnType<typeof setTimeout> | undefined
  // The transport keeps the deadline; this guard only makes sure nothing waits much longer.
  const guard = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, o.timeoutMs + 500)
  })
  try {
    await Promise.race([client.signOut(), guard])
  } catch (e) {
    if (!(AppError.is(e) && e.kind === 'not_offered')) {
      o.log(`Could not sign out on the server: ${AppError.is(e) ? e.message : String(e)}`)
    }
  } finally {
    clearTimeout(timer)
  }
}
