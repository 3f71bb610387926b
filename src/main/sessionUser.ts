/**
 * Who signed in: the user a sign-in answer names, or the one a token belongs to when the server
 * does not say (found from what the token can list).
 */
import { AppError } from '../shared/errors'
import { createHash } from 'node:crypto'
import type { ApiClient } from './api/client'
import type { StoredUser } from './profiles'

export const UNKNOWN_USER_MESSAGE =
  'Agent Desk could not find out which user this API token belongs to (the server does not say), so it cannot do this. Sign in with your e-mail and password instead.'

export interface Discovered {
  id: string | null
  email: string | null
  name: string | null
  /** True once one authenticated call was answered with a success envelope (the token works). */
  proven: boolean
  /** The first refusal met on the way (kept to explain a token that proved nothing). */
  firstError: AppError | null
}

/** `user` as the server's answer found it (`discoverUser`, with an id): its id known from now on. */
export function userFound(user: StoredUser, found: Discovered & { id: string }): StoredUser {
  return {
    ...user,
    id: found.id,
    idKnown: true,
    email: user.email || found.email || '',
    name: found.name ?? user.name
  }
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null
}

function isConnectivity(e: AppError): boolean {
  return e.kind === 'network' || e.kind === 'timeout' || (e.kind === 'server' && (e.status ?? 0) >= 502)
}

/**
 * Which user a token belongs to: the API token list (matching the value), else the owner of any
 * resource the token can list. Rejected credential and unreachable server are thrown.
 */
export async function discoverUser(client: ApiClient, token: string): Promise<Discovered> {
  const out: Discovered = { id: null, email: null, name: null, proven: false, firstError: null }
  const rethrow = (e: unknown) => {
    if (AppError.is(e) && (e.kind === 'unauthorized' || isConnectivity(e))) throw e
    if (!AppError.is(e)) throw e
    out.firstError ??= e
  }
  try {
    const tokens = await client.apiTokens.list()
    out.proven = true
    const mine = tokens.find((t) => t.token === token) ?? null
    const candidate = mine ?? (tokens.length > 0 ? tokens[0] : null)
    if (candidate) {
      const user = (candidate.user ?? {}) as Record<string, unknown>
      out.id = str(candidate.userId) ?? str(user.id)
      out.email = str(user.email)
      out.name = str(user.name)
      if (out.id) return out
    }
  } catch (e) {
    rethrow(e)
  }
  const lists: (() => Promise<{ userId?: string | undefined }[]>)[] = [
    () => client.agents.list(),
    () => client.documents.list(),
    () => client.prompts.list(),
    () => client.tags.list()
  ]
  for (const list of lists) {
    try {
      const items = await list()
      out.proven = true
      const owner = items.map((i) => str(i.userId)).find((x) => x !== null)
      if (owner) {
        out.id = owner
        return out
      }
    } catch (e) {
      rethrow(e)
    }
  }
  return out
}

export function tokenStoreKey(token: string): string {
  return `token-${createHash('sha256').update(token).digest('hex').slice(0, 24)}`
}

/** No call made with the token was answered with data: no session on that (issue 12 item 5). */
function unproven(e: AppError | null): AppError {
  const status = e?.status ?? 0
  const why =
    status >= 300 && status < 400
      ? `the server answered with a redirect (${status}) instead of data: check the server address`
      : e
        ? e.message.charAt(0).toLowerCase() + e.message.slice(1)
        : 'the server did not answer with data'
  return new AppError({
    kind: e?.kind === 'not_offered' || !e ? 'protocol' : e.kind,
    message: `Could not sign in with this API token: ${why}`,
    fields: [{ field: 'token', message: 'Not confirmed by the server' }]
  })
}

/** The user to store for a sign-in: as the server named them, else found with the token. */
export async function userFor(
  client: () => ApiClient,
  token: string,
  user: { id: string; email?: string | undefined; name?: string | undefined } | null,
  email: string | null,
  authMethod: 'password' | 'apiToken',
  name: string | null = null
): Promise<StoredUser> {
  if (user && user.id) {
    return {
      id: user.id,
      email: str(user.email) ?? email ?? '',
      name: str(user.name) ?? name ?? (email ? (email.split('@')[0] ?? email) : 'User'),
      authMethod,
      idKnown: true,
      storeKey: user.id
    }
  }
  let found: Discovered
  try {
    found = await discoverUser(client(), token)
  } catch (e) {
    if (AppError.is(e) && e.kind === 'unauthorized' && authMethod === 'apiToken') {
      throw new AppError({
        kind: 'unauthorized',
        message: 'The server did not accept this API token.',
        fields: [{ field: 'token', message: 'Not accepted by the server' }]
      })
    }
    throw e
  }
  if (authMethod === 'apiToken' && !found.proven) throw unproven(found.firstError)
  const finalEmail = found.email ?? email ?? ''
  const finalName =
    found.name ??
    name ??
    (finalEmail
      ? (finalEmail.split('@')[0] ?? finalEmail)
      : authMethod === 'apiToken'
        ? 'API token user'
        : 'User')
  if (found.id) {
    return {
      id: found.id,
      email: finalEmail,
      name: finalName,
      authMethod,
      idKnown: true,
      storeKey: found.id
    }
  }
  return {
    id: '',
    email: finalEmail,
    name: finalName,
    authMethod,
    idKnown: false,
    storeKey: tokenStoreKey(token)
  }
}
