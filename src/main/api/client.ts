/**
 * The main process's client for the Agent Management Service (service-api.md), used for remote
 * servers and the embedded Local workspace alike: the transport, the sign-in calls, and every
 * resource's endpoints (src/main/resources/<resource>.ts) on it.
 *
 * - Sends `Bearer <token>` under ONE header (decisions.md "Authentication"): `Authorization`
 *   (what the origin read) alone. When a call with `Authorization` is refused as not
 *   authenticated (401, or 403 with the origin's words) and the same call with the document's
 *   misspelled `Autorization` alone succeeds, that spelling is remembered for the profile
 *   (AuthHeaderStore, profiles.json) and used alone from then on. Never both: a second,
 *   misspelled header escapes the log scrubbers and proxies that redact `Authorization`.
 * - The token is attached only to requests for the origin that issued it (`tokenOrigin`);
 *   a call for another origin fails with 'signed_out' and sends nothing.
 *   JSON bodies carry `Content-Type: application/json`.
 * - A call succeeds only on 2xx AND an envelope with `success: true`. Everything else becomes one
 *   AppError (see normalize.ts). Every method throws AppError and nothing else.
 * - `data` is parsed with the tolerant schemas of src/shared. Lists drop items that cannot be
 *   used (no id) instead of failing; `data: null` (or `{}`) where an object was due means "not
 *   found", which is how the origin answered it — except for a create, which the server then
 *   accepted without an answer (code 'accepted_without_answer'; the caller refreshes the list).
 * - Fields the server left out of an answer are filled from the request when the client knows
 *   them (document create has no `name`, links may lack their ids); server values always win.
 * - Operations service-api.md does not show (EXTRA_OPERATIONS) are detected: a route-miss
 *   404/405 marks them 'not_offered' in the CapabilityStore and throws kind 'not_offered'; later
 *   calls throw at once without a request. A success marks them 'offered'.
 * - Timeouts: a deadline (timeoutMs) for the whole exchange, and for reads a shorter one to the
 *   first byte of the answer (firstByteTimeoutMs, 10 s); an answer still coming at the deadline
 *   has another deadline's time while it comes at 64 KiB/s or faster (minBodyBytesPerSecond). The current IPC call's AbortSignal
 *   (callContext) aborts the request: kind 'cancelled'. No request waits for a pool slot (reads
 *   and writes have their own keep-alive agents, without a socket limit). Idempotent GETs
 *   are retried (getRetries times, 150 ms × attempt backoff) on network failures only
 *   (refused, reset, unreachable, DNS try-again) — never after a timeout, since a slow server
 *   would then keep the user waiting several deadlines, and never on a too-large answer. Other
 *   methods are retried once only when Node reports the request went out on a kept-alive socket
 *   the server had already closed (the request was then never processed).
 * - Sign-in: a rejected credential is kind 'unauthorized' with "Wrong e-mail or password" and
 *   does NOT call onUnauthorized (nothing to end yet); sign-up likewise. For every other call
 *   'unauthorized' (401, or 403 whose words mean a rejected credential) calls onUnauthorized.
 * - No token for an operation that needs one: AppError 'signed_out', no request.
 */
import { AppError } from '../../shared/errors'
import { SignInResponse } from '../../shared/auth'
import { User } from '../../shared/user'
import { agentsEndpoints } from '../resources/agents'
import { apiTokensEndpoints } from '../resources/apiTokens'
import { documentsEndpoints } from '../resources/documents'
import { agentDocumentsEndpoints, agentToolsEndpoints } from '../resources/links'
import { promptsEndpoints } from '../resources/prompts'
import { tagsEndpoints } from '../resources/tags'
import { toolsEndpoints } from '../resources/tools'
import { endpoints, isEmptyObject, protocol, type Endpoints } from './endpoints'
import { isRecord } from './normalize'
import { createTransport, type ApiClientOptions, type Transport } from './transport'

export {
  EXTRA_OPERATIONS,
  memoryAuthHeaderStore,
  memoryCapabilityStore,
  type AuthHeaderName,
  type AuthHeaderStore,
  type CapabilityStore,
  type ExtraOperation
} from './capabilities'
export { normalizeBaseUrl, type ApiClientOptions } from './transport'
export type { Crud } from './endpoints'

function authEndpoints(e: Endpoints) {
  return {
    async signIn(b: { email: string; password: string }): Promise<{ token: string; user?: User }> {
      const data = await e.request({
        op: 'session.signIn',
        method: 'POST',
        path: '/auth/sign-in',
        body: { email: b.email, password: b.password },
        auth: false,
        scope: 'collection',
        what: 'account'
      })
      if (data === null || isEmptyObject(data)) {
        throw new AppError({
          kind: 'unauthorized',
          message: 'Wrong e-mail or password',
          code: 'invalid_credentials'
        })
      }
      const r = SignInResponse.safeParse(data)
      if (!r.success) throw protocol('The server accepted the sign-in but sent no token')
      const out: { token: string; user?: User } = { token: r.data.token }
      if (r.data.user) out.user = r.data.user
      return out
    },

    /** Asks the server to revoke the session's token (an extra: not every server offers it). */
    async signOut(): Promise<void> {
      await e.request({
        op: 'session.signOut',
        method: 'POST',
        path: '/auth/sign-out',
        auth: true,
        scope: 'collection',
        what: 'session'
      })
    },

    async signUp(b: {
      email: string
      password: string
      name: string
    }): Promise<{ token?: string; user?: User }> {
      const data = await e.request({
        op: 'session.signUp',
        method: 'POST',
        path: '/auth/sign-up',
        body: { email: b.email, password: b.password, name: b.name },
        auth: false,
        scope: 'collection',
        what: 'account'
      })
      const out: { token?: string; user?: User } = {}
      if (isRecord(data)) {
        if (typeof data.token === 'string' && data.token) out.token = data.token
        const nested = User.safeParse(data.user)
        const flat = User.safeParse(data)
        if (nested.success) out.user = nested.data
        else if (flat.success && typeof data.token !== 'string') out.user = flat.data
      }
      return out
    }
  }
}

/** The whole client on one transport. */
export function clientOn(transport: Transport) {
  const e = endpoints(transport)
  return {
    baseUrl: transport.baseUrl,
    transport,
    ...authEndpoints(e),
    agents: agentsEndpoints(e),
    documents: documentsEndpoints(e),
    tools: toolsEndpoints(e),
    prompts: promptsEndpoints(e),
    tags: tagsEndpoints(e),
    apiTokens: apiTokensEndpoints(e),
    agentDocuments: agentDocumentsEndpoints(e),
    agentTools: agentToolsEndpoints(e)
  }
}

export type ApiClient = ReturnType<typeof clientOn>

export function createApiClient(opts: ApiClientOptions): ApiClient {
  return clientOn(createTransport(opts))
}
