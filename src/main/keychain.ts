/**
 * Where the session token lives: the OS keychain (keytar → Secret Service / Keychain / Credential
 * Vault). When no keychain is reachable, an in-memory keychain for this run only, with a plain
 * message the app shows. The token is never written to a file by Agent Desk.
 */
import { randomBytes } from 'node:crypto'

export interface Keychain {
  get(account: string): Promise<string | null>
  set(account: string, secret: string): Promise<void>
  delete(account: string): Promise<void>
  readonly kind: 'os' | 'memory'
  readonly message?: string
}

/** The app's own entry name in the OS keychain. */
export const KEYCHAIN_SERVICE = 'Agent Desk'
/** The entry name the tests and the e2e harness use, so they never touch the app's own entries. */
export const TEST_KEYCHAIN_SERVICE = 'Agent Desk (tests)'
/** Names another entry for an unpackaged build (the e2e runs launch the built app with it). */
export const KEYCHAIN_SERVICE_ENV = 'AGENT_DESK_KEYCHAIN_SERVICE'

/** The keychain entry name: the app's own, or for an unpackaged build the one AGENT_DESK_KEYCHAIN_SERVICE names. */
export function keychainServiceName(env: Record<string, string | undefined>, packaged: boolean): string {
  const named = env[KEYCHAIN_SERVICE_ENV]?.trim()
  return !packaged && named ? named : KEYCHAIN_SERVICE
}

export const NO_KEYCHAIN_MESSAGE =
  'No system keychain (Secret Service) is available: you will stay signed in only until Agent Desk quits.'

/** A keychain that forgets everything when the process ends. */
export function memoryKeychain(message?: string): Keychain {
  const secrets = new Map<string, string>()
  const kc: Keychain = {
    kind: 'memory',
    async get(account) {
      return secrets.get(account) ?? null
    },
    async set(account, secret) {
      secrets.set(account, secret)
    },
    async delete(account) {
      secrets.delete(account)
    }
  }
  return message === undefined ? kc : { ...kc, message }
}

interface KeytarApi {
  getPassword(service: string, account: string): Promise<string | null>
  setPassword(service: string, account: string, password: string): Promise<void>
  deletePassword(service: string, account: string): Promise<boolean>
}

function isKeytar(v: unknown): v is KeytarApi {
  if (typeof v !== 'object' || v === null) return false
  const r = v as Record<string, unknown>
  return (
    typeof r.getPassword === 'function' &&
    typeof r.setPassword === 'function' &&
    typeof r.deletePassword === 'function'
  )
}

async function loadKeytar(): Promise<KeytarApi> {
  const mod: unknown = await import('keytar')
  const candidates = [mod, (mod as { default?: unknown }).default]
  for (const c of candidates) if (isKeytar(c)) return c
  throw new Error('keytar did not load')
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms)
    p.then(
      (v) => {
        clearTimeout(timer)
        resolve(v)
      },
      (e: unknown) => {
        clearTimeout(timer)
        reject(e instanceof Error ? e : new Error(String(e)))
      }
    )
  })
}

export interface CreateKeychainOptions {
  /** Deadline for the probe (a locked or hung Secret Service must not block start-up). */
  probeTimeoutMs?: number
  /** Called with the reason when the OS keychain cannot be used. */
  onFallback?: (reason: string) => void
}

/**
 * Loads keytar and proves it works (set, get, delete a probe entry). Falls back to memory when
 * the module cannot load or no Secret Service answers.
 */
export async function createKeychain(
  service = KEYCHAIN_SERVICE,
  opts: CreateKeychainOptions = {}
): Promise<Keychain> {
  const timeout = opts.probeTimeoutMs ?? 5000
  let keytar: KeytarApi
  try {
    keytar = await loadKeytar()
    const account = `probe:${process.pid}:${randomBytes(4).toString('hex')}`
    const value = randomBytes(12).toString('hex')
    await withTimeout(keytar.setPassword(service, account, value), timeout, 'The keychain')
    const back = await withTimeout(keytar.getPassword(service, account), timeout, 'The keychain')
    await withTimeout(keytar.deletePassword(service, account), timeout, 'The keychain')
    if (back !== value) throw new Error('The keychain did not return what was stored')
  } catch (e) {
    opts.onFallback?.(e instanceof Error ? e.message : String(e))
    return memoryKeychain(NO_KEYCHAIN_MESSAGE)
  }
  const kt = keytar
  return {
    kind: 'os',
    async get(account) {
      return (await withTimeout(kt.getPassword(service, account), timeout, 'The keychain')) ?? null
    },
    async set(account, secret) {
      await withTimeout(kt.setPassword(service, account, secret), timeout, 'The keychain')
    },
    async delete(account) {
      await withTimeout(kt.deletePassword(service, account), timeout, 'The keychain')
    }
  }
}
