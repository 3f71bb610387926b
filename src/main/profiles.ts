/**
 * Server profiles and the small non-secret state around them, kept in `profiles.json` in the
 * user-data folder. The built-in Local workspace profile is always there. Tokens are NOT here:
 * they live in the keychain.
 *
 * A change is made in memory at once and written to the file after, off main's event loop
 * (./atomicFile): the file is written at every start of the Local workspace (its new port) and
 * with each capability learned. `saved()` tells when every change made so far is in the file.
 */
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Capabilities, Capability, Profile, SessionUser } from '../shared/ipc'
import { AtomicFile } from './atomicFile'

export const LOCAL_PROFILE_ID = 'local'
export const LOCAL_PROFILE_NAME = 'Local workspace'

/** The header spelling a server reads (as api/transport.ts names it). */
type AuthHeaderName = 'Authorization' | 'Autorization'

export interface StoredUser extends SessionUser {
  authMethod: 'password' | 'apiToken'
  /** False when the server could not tell which user an API token belongs to. */
  idKnown: boolean
  /** Names the user's local store file: the user id, or a hash of the token when the id is unknown. */
  storeKey: string
  /** The origin (scheme://host:port) that issued the session's token: it is sent nowhere else. */
  origin?: string
}

export interface ProfilesFile {
  version: 1
  profiles: Profile[]
  /** The Local workspace's address while its service runs (the port changes between runs). */
  localBaseUrl: string
  /** The profile of the current (or last) session. */
  activeProfileId: string | null
  /** `user:<profileId>`: who is signed in on that profile. */
  users: Record<string, StoredUser>
  /** What each server was found to offer (decisions.md "Operations the document does not show"). */
  capabilities: Record<string, Capabilities>
  /** Profiles whose server was found to read only the document's `Autorization` header. */
  authHeaders: Record<string, AuthHeaderName>
}

function emptyFile(): ProfilesFile {
  return {
    version: 1,
    profiles: [],
    localBaseUrl: '',
    activeProfileId: null,
    users: {},
    capabilities: {},
    authHeaders: {}
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function readProfile(v: unknown): Profile | null {
  if (!isRecord(v)) return null
  const { id, name, baseUrl, insecure } = v
  if (typeof id !== 'string' || !id || id === LOCAL_PROFILE_ID) return null
  if (typeof name !== 'string' || typeof baseUrl !== 'string') return null
  const p: Profile = { id, name, baseUrl, kind: 'remote' }
  if (insecure === true) p.insecure = true
  return p
}

function readUser(v: unknown): StoredUser | null {
  if (!isRecord(v)) return null
  const { id, email, name, authMethod, idKnown, storeKey, origin } = v
  if (typeof id !== 'string' || typeof email !== 'string' || typeof name !== 'string') return null
  if (authMethod !== 'password' && authMethod !== 'apiToken') return null
  const key = typeof storeKey === 'string' && storeKey ? storeKey : id
  if (!key) return null
  const user: StoredUser = { id, email, name, authMethod, idKnown: idKnown !== false, storeKey: key }
  if (typeof origin === 'string' && origin) user.origin = origin
  return user
}

function readCapabilities(v: unknown): Capabilities {
  const out: Capabilities = {}
  if (!isRecord(v)) return out
  for (const [k, c] of Object.entries(v)) {
    if (c === 'offered' || c === 'not_offered' || c === 'unknown') out[k] = c
  }
  return out
}

/** Reads whatever is on disk; a missing or damaged file gives a fresh start (never a crash). */
export function parseProfilesFile(text: string): ProfilesFile {
  const out = emptyFile()
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return out
  }
  if (!isRecord(raw)) return out
  if (Array.isArray(raw.profiles)) {
    for (const p of raw.profiles) {
      const prof = readProfile(p)
      if (prof && !out.profiles.some((x) => x.id === prof.id)) out.profiles.push(prof)
    }
  }
  if (typeof raw.localBaseUrl === 'string') out.localBaseUrl = raw.localBaseUrl
  if (typeof raw.activeProfileId === 'string') out.activeProfileId = raw.activeProfileId
  if (isRecord(raw.users)) {
    for (const [k, u] of Object.entries(raw.users)) {
      const user = readUser(u)
      if (user) out.users[k] = user
    }
  }
  if (isRecord(raw.capabilities)) {
    for (const [k, c] of Object.entries(raw.capabilities)) out.capabilities[k] = readCapabilities(c)
  }
  if (isRecord(raw.authHeaders)) {
    for (const [k, h] of Object.entries(raw.authHeaders)) if (h === 'Autorization') out.authHeaders[k] = h
  }
  return out
}

/** Base URL as typed, without trailing slashes (the API client adds `/api/v1/...`). */
export function normalizeBaseUrl(url: string): string {
  return url.trim().replace(/\/+$/, '')
}

export class ProfileRegistry {
  readonly file: string
  private data: ProfilesFile
  /** Written after each change, off the event loop (./atomicFile). */
  private readonly out: AtomicFile

  constructor(readonly userDataDir: string) {
    this.file = join(userDataDir, 'profiles.json')
    let text = ''
    try {
      text = readFileSync(this.file, 'utf8')
    } catch {
      text = ''
    }
    this.data = text ? parseProfilesFile(text) : emptyFile()
    this.out = new AtomicFile(this.file, () => JSON.stringify(this.data, null, 2))
  }

  private save(): void {
    this.out.save()
  }

  /** Resolves once every change made so far is in the file; rejects when the last write failed. */
  saved(): Promise<void> {
    return this.out.saved()
  }

  localProfile(): Profile {
    return { id: LOCAL_PROFILE_ID, name: LOCAL_PROFILE_NAME, kind: 'local', baseUrl: this.data.localBaseUrl }
  }

  list(): Profile[] {
    return [this.localProfile(), ...this.data.profiles.map((p) => ({ ...p }))]
  }

  get(id: string): Profile | null {
    if (id === LOCAL_PROFILE_ID) return this.localProfile()
    const p = this.data.profiles.find((x) => x.id === id)
    return p ? { ...p } : null
  }

  /** Adds (no id) or updates (id) a remote profile. Returns null when the id is unknown. */
  saveRemote(input: {
    id?: string | undefined
    name: string
    baseUrl: string
    insecure?: boolean | undefined
  }): Profile | null {
    const baseUrl = normalizeBaseUrl(input.baseUrl)
    const insecure = input.insecure === true && new URL(baseUrl).protocol === 'http:'
    if (input.id !== undefined) {
      const p = this.data.profiles.find((x) => x.id === input.id)
      if (!p) return null
      if (p.baseUrl !== baseUrl) {
        delete this.data.capabilities[p.id]
        delete this.data.authHeaders[p.id]
      }
      p.name = input.name
      p.baseUrl = baseUrl
      if (insecure) p.insecure = true
      else delete p.insecure
      this.save()
      return { ...p }
    }
    const profile: Profile = { id: `p-${randomUUID()}`, name: input.name, baseUrl, kind: 'remote' }
    if (insecure) profile.insecure = true
    this.data.profiles.push(profile)
    this.save()
    return { ...profile }
  }

  remove(id: string): boolean {
    const before = this.data.profiles.length
    this.data.profiles = this.data.profiles.filter((p) => p.id !== id)
    if (this.data.profiles.length === before) return false
    delete this.data.users[id]
    delete this.data.capabilities[id]
    delete this.data.authHeaders[id]
    if (this.data.activeProfileId === id) this.data.activeProfileId = null
    this.save()
    return true
  }

  setLocalBaseUrl(url: string): void {
    if (this.data.localBaseUrl === url) return
    this.data.localBaseUrl = url
    this.save()
  }

  activeProfileId(): string | null {
    return this.data.activeProfileId
  }

  setActive(id: string | null, user: StoredUser | null): void {
    this.data.activeProfileId = id
    if (id !== null) {
      if (user) this.data.users[id] = { ...user }
      else delete this.data.users[id]
    }
    this.save()
  }

  user(profileId: string): StoredUser | null {
    const u = this.data.users[profileId]
    return u ? { ...u } : null
  }

  setUser(profileId: string, user: StoredUser | null): void {
    if (user) this.data.users[profileId] = { ...user }
    else delete this.data.users[profileId]
    this.save()
  }

  capabilities(profileId: string): Capabilities {
    return { ...(this.data.capabilities[profileId] ?? {}) }
  }

  /** The header spelling the profile's server was found to need (default `Authorization`). */
  authHeader(profileId: string): AuthHeaderName {
    return this.data.authHeaders[profileId] ?? 'Authorization'
  }

  setAuthHeader(profileId: string, name: AuthHeaderName): void {
    if (this.authHeader(profileId) === name) return
    if (name === 'Autorization') this.data.authHeaders[profileId] = name
    else delete this.data.authHeaders[profileId]
    this.save()
  }

  setCapability(profileId: string, op: string, value: Capability): void {
    const caps = (this.data.capabilities[profileId] ??= {})
    if (caps[op] === value) return
    caps[op] = value
    this.save()
  }
}
