/**
 * Capabilities: what a server offers. Operations service-api.md does not show are detected (a
 * route-miss marks them 'not_offered', a success 'offered') and remembered per profile.
 */
import type { Capabilities, Capability } from '../../shared/ipc'
import { AppError, type AppErrorData } from '../../shared/errors'
import type { ProfileRegistry } from '../profiles'

/**
 * Operations service-api.md does not show (decisions.md lists them), keyed like IPC channels,
 * with the words used in "This server does not offer …".
 */
export const EXTRA_OPERATIONS = {
  'documents.list': 'a list of documents',
  'prompts.list': 'a list of prompts',
  'prompts.create': 'creating prompts',
  'prompts.delete': 'deleting prompts',
  'tags.list': 'a list of tags',
  'tags.get': 'opening a tag',
  'tags.update': 'changing tags',
  'tags.delete': 'deleting tags',
  'apiTokens.delete': 'deleting API tokens',
  'tools.create': 'creating tools',
  'tools.delete': 'deleting tools',
  'agents.update': 'changing agents',
  'agentDocuments.list': 'a list of agent-document links',
  'agentDocuments.delete': 'removing agent-document links',
  'agentTools.list': 'a list of agent-tool links',
  'agentTools.get': 'opening an agent-tool link',
  'agentTools.delete': 'removing agent-tool links',
  'session.signUp': 'creating accounts',
  'session.signOut': 'signing out on the server'
} as const
export type ExtraOperation = keyof typeof EXTRA_OPERATIONS

export function isExtraOperation(op: string): op is ExtraOperation {
  return Object.prototype.hasOwnProperty.call(EXTRA_OPERATIONS, op)
}

/** Where a server's capabilities are remembered. */
export interface CapabilityStore {
  get(op: string): Capability
  set(op: string, value: Capability): void
  all(): Capabilities
}

export function memoryCapabilityStore(initial?: Capabilities): CapabilityStore {
  const map = new Map<string, Capability>(Object.entries(initial ?? {}))
  return {
    get: (op) => map.get(op) ?? 'unknown',
    set: (op, value) => {
      map.set(op, value)
    },
    all: () => Object.fromEntries(map)
  }
}

/** decisions.md: `Authorization` alone; `Autorization` only for a server found to need it. */
export type AuthHeaderName = 'Authorization' | 'Autorization'

export interface AuthHeaderStore {
  get(): AuthHeaderName
  set(name: AuthHeaderName): void
}

export function memoryAuthHeaderStore(initial: AuthHeaderName = 'Authorization'): AuthHeaderStore {
  let name = initial
  return {
    get: () => name,
    set: (n) => {
      name = n
    }
  }
}

/** The header spelling one profile's server needs, kept in profiles.json. */
export function authHeaderStoreFor(profiles: ProfileRegistry, profileId: string): AuthHeaderStore {
  return {
    get: () => profiles.authHeader(profileId),
    set: (name) => profiles.setAuthHeader(profileId, name)
  }
}

/** The capabilities of one profile, kept in profiles.json. */
export function capabilityStoreFor(profiles: ProfileRegistry, profileId: string): CapabilityStore {
  return {
    get: (op) => profiles.capabilities(profileId)[op] ?? 'unknown',
    set: (op, value) => profiles.setCapability(profileId, op, value),
    all: (): Capabilities => profiles.capabilities(profileId)
  }
}

function label(op: ExtraOperation): string {
  return EXTRA_OPERATIONS[op]
}

export function notOffered(op: ExtraOperation, status?: number): AppError {
  const data: AppErrorData = {
    kind: 'not_offered',
    message: `This server does not offer ${label(op)}`,
    code: op
  }
  if (status !== undefined) data.status = status
  return new AppError(data)
}
