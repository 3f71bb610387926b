import type { Read, SessionState } from '../../shared/ipc'

/**
 * The first reads of a start, asked for before the app's code is evaluated (`early.ts` is an
 * entry of its own, listed before the app's in index.html). The session and the opening view's
 * cached list then travel while the bundle is parsed and the shell mounts, instead of after.
 * Each answer is taken once; everything later asks `window.agentDesk` as usual.
 */
const LIST_ROUTES = {
  agents: 'agents',
  documents: 'documents',
  tools: 'tools',
  prompts: 'prompts',
  tags: 'tags',
  'api-tokens': 'apiTokens'
} as const
type ListResource = (typeof LIST_ROUTES)[keyof typeof LIST_ROUTES]

let session: Promise<SessionState> | undefined
const lists = new Map<string, Promise<Read<unknown[]>>>()

/** Keeps an unused early answer's failure from being reported as unhandled. */
function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined)
  return p
}

/** Starts the session read and, for a list route (default: agents), that list's cached answer. */
export function startEarlyReads(hash: string = location.hash): void {
  const api = typeof window !== 'undefined' ? window.agentDesk : undefined
  if (!api || session) return
  try {
    session = quiet(api.session.get())
    const first = hash.replace(/^#\/?/, '').split(/[/?]/)[0] || 'agents'
    const resource: ListResource | undefined = LIST_ROUTES[first as keyof typeof LIST_ROUTES]
    if (resource)
      lists.set(resource, quiet(api[resource].list({ cacheOnly: true }) as Promise<Read<unknown[]>>))
  } catch {
    // No early reads: the app asks as usual.
  }
}

/** The early session answer, once. */
export function takeEarlySession(): Promise<SessionState> | undefined {
  const p = session
  session = undefined
  return p
}

/** The early cached list of `resource`, once. */
export function takeEarlyList<T>(resource: string): Promise<Read<T[]>> | undefined {
  const p = lists.get(resource)
  lists.delete(resource)
  return p as Promise<Read<T[]>> | undefined
}
