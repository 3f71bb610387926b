import type { EarlyKey, EarlyRead, Read, SessionState } from '../../shared/ipc'

/**
 * The reads of a start that the preload asked for as the page began to load (see `buildDeskApi`):
 * the session and the opening view's cached list (or the first frame took them, and hands them
 * on). Each is taken once; an answer that has already come is used at once (the first render can
 * show it), one still travelling is awaited. Without one (no preload support, already taken,
 * failed) the caller asks `window.agentDesk` as usual.
 */
function take<T>(key: EarlyKey): EarlyRead<T> | undefined {
  try {
    // The first frame drew from it (firstFrame/shell.ts): the same answer, not asked again.
    const drawn = typeof window !== 'undefined' ? window.agentDeskFirstFrame?.take(key) : undefined
    if (drawn) return drawn as EarlyRead<T>
    const api = typeof window !== 'undefined' ? window.agentDesk : undefined
    return api?.early?.(key) as EarlyRead<T> | undefined
  } catch {
    return undefined
  }
}

/** The early session answer, once. */
export function takeEarlySession(): EarlyRead<SessionState> | undefined {
  return take<SessionState>('session')
}

/** The early cached list of `resource` (an IPC namespace: `agents`, `apiTokens`…), once. */
export function takeEarlyList<T>(resource: string): EarlyRead<Read<T[]>> | undefined {
  return take<Read<T[]>>(`list:${resource}`)
}
