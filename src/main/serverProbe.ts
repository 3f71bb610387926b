/**
 * The connectivity probe: a cheap GET with a short deadline and no retries on the current
 * session's server; any answer (not found, refused, …) means "reachable".
 */
import { AppError } from '../shared/errors'
import type { ActiveSession } from './activeSession'
import { createApiClient, type ApiClient } from './api/client'
import type { ProfileRegistry } from './profiles'
import { SESSION_ENDED_MESSAGE, type SessionManager } from './session'

export interface ProbeDeps {
  session: Pick<SessionManager, 'acquire' | 'release' | 'current' | 'end' | 'credentials'>
  profiles: ProfileRegistry
  timeoutMs: number
}

export function serverProbe({ session, timeoutMs }: ProbeDeps): () => Promise<void> {
  let probeClient: { gen: number; baseUrl: string; client: ApiClient } | null = null
  return async () => {
    let s: ActiveSession
    try {
      s = await session.acquire()
    } catch (e) {
      if (AppError.is(e) && e.kind === 'signed_out') return
      throw e
    }
    try {
      if (!probeClient || probeClient.gen !== s.generation || probeClient.baseUrl !== s.profile.baseUrl) {
        const gen = s.generation
        probeClient = {
          gen,
          baseUrl: s.profile.baseUrl,
          client: createApiClient({
            baseUrl: s.profile.baseUrl,
            ...session.credentials(gen, s.profile.id),
            timeoutMs,
            getRetries: 0,
            onUnauthorized: () => {
              void session.end(gen, SESSION_ENDED_MESSAGE)
            }
          })
        }
      }
      try {
        await probeClient.client.agents.get('agent-desk-connectivity-probe')
      } catch (e) {
        // Any answer from the server (not found, refused, …) means it can be reached.
        if (
          AppError.is(e) &&
          !(e.kind === 'network' || e.kind === 'timeout' || (e.kind === 'server' && (e.status ?? 0) >= 502))
        )
          return
        throw e
      }
    } finally {
      session.release(s)
    }
  }
}
