/**
 * The session: which profile and user are signed in, the token (kept in the keychain, held in
 * memory here, never handed to the renderer), the API client and the per-profile+user store.
 */
import { authHeaderStoreFor, capabilityStoreFor } from './api/capabilities'
import { clientOn, createApiClient, type ApiClient, type ApiClientOptions } from './api/client'
import { openOfflineStoreLettingGo, offlineStorePath, profileStoreFiles } from './offline'
import { StoreClosings } from './storeClosings'
import { AppError } from '../shared/errors'
import type { Connectivity, Profile, SessionState, SessionUser } from '../shared/ipc'
import type { EventBus } from './events'
import type { Keychain } from './keychain'
import type { ProfileRegistry, StoredUser } from './profiles'
import type { LocalWorkspace } from './localWorkspace'
import type { Lease } from './resources/kit'
import { ActiveSession } from './activeSession'
import { throwIfCancelled } from './callContext'
import { discoverUser, UNKNOWN_USER_MESSAGE, userFound } from './sessionUser'
import {
  localCredential,
  passwordCredential,
  profileOrThrow,
  signUpCredential,
  tokenCredential,
  type Credential
} from './signInFlows'
import { TokenVault } from './tokenVault'
import { addressChangedMessage, originOf } from './tokenOrigin'
import { signOutOnServer } from './serverSignOut'

export { ActiveSession }

export const SESSION_ENDED_MESSAGE = 'Your session ended. Sign in again to continue.'

export interface SessionDeps {
  userDataDir: string
  keychain: Keychain
  profiles: ProfileRegistry
  local: LocalWorkspace
  fetchTimeoutMs: number
  /** Deadline for writes (default 4 × fetchTimeoutMs). */
  writeTimeoutMs?: number
  /** Deadline of the best-effort sign-out call to the server. Default: min(2000, fetchTimeoutMs). */
  signOutTimeoutMs?: number
  /** The session changed (signed in/out, ended): the core emits 'session.changed'. */
  onChange: (state: SessionState) => void
  /** Where 'session.opened' and 'session.closed' are announced (the sync coordinator listens). */
  events: EventBus
  connectivity: () => Connectivity
  /** Told when a session request starts; the returned function when it ends (connectivity.ts). */
  onRequest?: () => () => void
  log: (message: string, err?: unknown) => void
}

export class SessionManager {
  private active: ActiveSession | null = null
  private generation = 0
  private lastProfileId: string | null = null
  private endedReason: string | undefined
  private initialized: Promise<void> | null = null
  /** The stores of ended sessions, closing off main. */
  private readonly closings: StoreClosings

  private readonly tokens: TokenVault

  constructor(private readonly deps: SessionDeps) {
    this.tokens = new TokenVault(deps.keychain, deps.log)
    this.closings = new StoreClosings(deps.log, (file) => this.active?.storeFile === file)
  }

  // ------------------------------------------------------------------------------------------
  // State
  // ------------------------------------------------------------------------------------------

  init(): Promise<void> {
    if (!this.initialized) this.initialized = this.restore()
    return this.initialized
  }

  private async restore(): Promise<void> {
    const { profiles } = this.deps
    const id = profiles.activeProfileId()
    if (!id) return
    this.lastProfileId = id
    const profile = profiles.get(id)
    const user = profiles.user(id)
    if (!profile || !user) return
    if (profile.kind === 'remote' && user.origin && user.origin !== originOf(profile.baseUrl)) {
      // The address moved away from the origin that issued the token: never send it there.
      await this.tokens.remove(id)
      profiles.setUser(id, null)
      this.endedReason = addressChangedMessage(profile.name)
      return
    }
    const token = await this.tokens.read(id)
    // The Local workspace needs no stored secret: a fresh token is issued when its service starts.
    if (!token && profile.kind !== 'local') return
    await this.open(profile, user, token)
  }

  current(): ActiveSession | null {
    return this.active
  }

  state(): SessionState {
    const kc = this.deps.keychain
    const s = this.active
    const base = {
      keychain: kc.kind,
      connectivity: s ? this.deps.connectivity() : { online: true, lastSyncedAt: null }
    }
    const withMessage = kc.message !== undefined ? { keychainMessage: kc.message } : {}
    if (!s) {
      const profile = this.lastProfileId ? this.deps.profiles.get(this.lastProfileId) : null
      const out: SessionState = {
        status: 'signedOut',
        profile,
        user: null,
        authMethod: null,
        ...base,
        ...withMessage
      }
      if (this.endedReason) out.endedReason = this.endedReason
      return out
    }
    const profile = this.deps.profiles.get(s.profile.id) ?? s.profile
    const user: SessionUser = s.user.idKnown
      ? { id: s.user.id, email: s.user.email, name: s.user.name }
      : { id: '', email: s.user.email, name: s.user.name }
    return { status: 'signedIn', profile, user, authMethod: s.user.authMethod, ...base, ...withMessage }
  }

  // ------------------------------------------------------------------------------------------
  // Leases: a handler holds the session while it works, so ending it never closes a store in use.
  // ------------------------------------------------------------------------------------------

  /** The signed-in session, ready for API calls (Local workspace started, client built). */
  async acquire(): Promise<ActiveSession> {
    await this.init()
    const s = this.active
    if (!s) throw new AppError({ kind: 'signed_out', message: 'Sign in to continue.' })
    s.refs += 1
    try {
      await this.prepare(s)
    } catch (e) {
      this.release(s)
      throw e
    }
    return s
  }

  release(s: ActiveSession): void {
    s.refs = Math.max(0, s.refs - 1)
    if (s.retired && s.refs === 0) this.closeStore(s)
  }

  /** The session's API client. */
  client(s: ActiveSession): ApiClient {
    if (!s.client) throw new AppError({ kind: 'internal', message: 'The session is not ready' })
    return s.client
  }

  private async prepare(s: ActiveSession): Promise<void> {
    if (s.profile.kind === 'local') {
      await this.deps.local.ensure()
      if (!s.localFresh) {
        const { token, user } = await this.deps.local.session()
        if (s.retired) return
        s.token = token
        s.localFresh = true
        if (user.id !== s.user.id || user.name !== s.user.name) {
          s.user = { ...s.user, id: user.id, email: user.email, name: user.name, idKnown: true }
          this.deps.profiles.setUser(s.profile.id, s.user)
        }
        await this.tokens.save(s.profile.id, token)
      }
      // The Local workspace issued the token, and takes it wherever it listens now: a service
      // thread started again (after it stopped) has a new port, and the same signing secret.
      s.tokenOrigin = originOf((await this.deps.local.ensure()).url)
      s.profile = this.deps.profiles.get(s.profile.id) ?? s.profile
    }
    if (!s.client || s.clientBaseUrl !== s.profile.baseUrl) {
      const gen = s.generation
      s.client = createApiClient({
        baseUrl: s.profile.baseUrl,
        ...this.credentials(gen, s.profile.id),
        timeoutMs: this.deps.fetchTimeoutMs,
        ...(this.deps.writeTimeoutMs ? { writeTimeoutMs: this.deps.writeTimeoutMs } : {}),
        ...(this.deps.onRequest ? { onRequest: this.deps.onRequest } : {}),
        onUnauthorized: () => {
          void this.end(gen, SESSION_ENDED_MESSAGE)
        }
      })
      s.clientBaseUrl = s.profile.baseUrl
    }
  }

  /**
   * What a client of session `generation` needs: its token (none once that session ended), the
   * origin that issued it, and the profile's capabilities and header spelling.
   */
  credentials(
    generation: number,
    profileId: string
  ): Pick<ApiClientOptions, 'getToken' | 'tokenOrigin' | 'capabilities' | 'authHeader'> {
    const mine = () => (this.active && this.active.generation === generation ? this.active : null)
    return {
      getToken: () => mine()?.token ?? null,
      tokenOrigin: () => mine()?.tokenOrigin ?? null,
      capabilities: capabilityStoreFor(this.deps.profiles, profileId),
      authHeader: authHeaderStoreFor(this.deps.profiles, profileId)
    }
  }

  // ------------------------------------------------------------------------------------------
  // Sign-in, sign-out
  // ------------------------------------------------------------------------------------------

  async startLocal(): Promise<SessionState> {
    await this.init()
    const profile = this.deps.profiles.localProfile()
    const c = await localCredential(this.deps)
    await this.begin(this.deps.profiles.get(profile.id) ?? profile, c)
    if (this.active) this.active.localFresh = true
    return this.state()
  }

  async signIn(profileId: string, email: string, password: string): Promise<SessionState> {
    await this.init()
    const profile = profileOrThrow(this.deps.profiles, profileId)
    if (profile.kind === 'local') return this.startLocal()
    await this.begin(profile, await passwordCredential(this.deps, profile, email, password))
    return this.state()
  }

  async signUp(profileId: string, email: string, password: string, name: string): Promise<SessionState> {
    await this.init()
    const profile = profileOrThrow(this.deps.profiles, profileId)
    if (profile.kind === 'local') return this.startLocal()
    await this.begin(profile, await signUpCredential(this.deps, profile, { email, password, name }))
    return this.state()
  }

  async signInWithToken(profileId: string, token: string): Promise<SessionState> {
    await this.init()
    const profile = profileOrThrow(this.deps.profiles, profileId)
    await this.begin(profile, await tokenCredential(this.deps, profile, token))
    if (profile.kind === 'local' && this.active) this.active.localFresh = true
    return this.state()
  }

  /** The session user's id, finding it now if the token did not tell at sign-in. */
  async requireUserId(s: Lease): Promise<string> {
    if (s.user.idKnown && s.user.id) return s.user.id
    const token = s.token
    if (token && s.client) {
      const found = await discoverUser(clientOn(s.client.transport), token)
      if (found.id) {
        s.user = userFound(s.user, { ...found, id: found.id })
        this.deps.profiles.setUser(s.profile.id, s.user)
        this.deps.onChange(this.state())
        return found.id
      }
    }
    throw new AppError({ kind: 'forbidden', message: UNKNOWN_USER_MESSAGE, code: 'user_unknown' })
  }

  private async begin(profile: Profile, { user: signedIn, token, origin }: Credential): Promise<void> {
    const user: StoredUser = origin ? { ...signedIn, origin } : signedIn
    // A sign-in the user cancelled does not begin a session, even if its answer came in time.
    throwIfCancelled()
    await this.tokens.save(profile.id, token)
    // A sign-out that cleared this store may be deleting its files now: opened once they are gone.
    await this.closings.removal(offlineStorePath(this.deps.userDataDir, profile.id, user.storeKey))
    const previous = this.active
    if (previous) {
      if (previous.profile.id !== profile.id) {
        await this.tokens.remove(previous.profile.id)
        this.deps.profiles.setUser(previous.profile.id, null)
      }
      this.retire(previous, false)
    }
    this.deps.profiles.setActive(profile.id, user)
    this.endedReason = undefined
    await this.open(profile, user, token)
    this.deps.onChange(this.state())
  }

  private async open(profile: Profile, user: StoredUser, token: string | null): Promise<void> {
    const file = offlineStorePath(this.deps.userDataDir, profile.id, user.storeKey)
    const store = await openOfflineStoreLettingGo(file)
    this.generation += 1
    const s = new ActiveSession(this.generation, profile, user, token, store, file)
    s.tokenOrigin = user.origin ?? (profile.kind === 'remote' ? originOf(profile.baseUrl) : null)
    this.active = s
    this.lastProfileId = profile.id
    this.deps.events.emit('session.opened', s)
  }

  /** Ends `s`; its store closes once no call holds it (returned: that close, and the clear asked). */
  private retire(s: ActiveSession, clearCache: boolean): Promise<void> | undefined {
    s.retired = true
    s.clearOnClose = s.clearOnClose || clearCache
    if (this.active === s) {
      this.active = null
      this.deps.events.emit('session.closed', undefined)
    }
    return s.refs === 0 ? this.closeStore(s) : undefined
  }

  private closeStore(s: ActiveSession): Promise<void> {
    return this.closings.close(s.store, s.storeFile, () => s.clearOnClose)
  }

  async signOut(clearCache: boolean): Promise<SessionState> {
    await this.init()
    const s = this.active
    if (!s) {
      this.endedReason = undefined
      return this.state()
    }
    const token = s.token
    const baseUrl = s.client?.baseUrl ?? (s.profile.kind === 'remote' ? s.profile.baseUrl : null)
    await this.tokens.remove(s.profile.id)
    this.deps.profiles.setUser(s.profile.id, null)
    this.endedReason = undefined
    const closed = this.retire(s, clearCache)
    this.deps.onChange(this.state())
    if (token && baseUrl) {
      await signOutOnServer({
        profiles: this.deps.profiles,
        profileId: s.profile.id,
        baseUrl,
        token,
        tokenOrigin: s.tokenOrigin,
        timeoutMs: this.deps.signOutTimeoutMs ?? Math.min(2000, this.deps.fetchTimeoutMs),
        log: this.deps.log
      })
    }
    // "Clear the cache" is done when the answer comes: the files are gone (or the error tells why not).
    if (clearCache) await closed
    return this.state()
  }

  /** The server rejected the credential: forget the token, keep everything else. */
  async end(generation: number, reason: string): Promise<void> {
    const s = this.active
    if (!s || s.generation !== generation) return
    this.endedReason = reason
    this.retire(s, false)
    this.deps.profiles.setUser(s.profile.id, null)
    this.deps.onChange(this.state())
    await this.tokens.remove(s.profile.id)
  }

  /** A profile was removed: its session ends if current, and what this computer keeps of it goes. */
  async forgetProfile(profileId: string): Promise<void> {
    await this.tokens.remove(profileId)
    if (this.active?.profile.id === profileId) {
      this.retire(this.active, true)
      this.deps.onChange(this.state())
    }
    if (this.lastProfileId === profileId) this.lastProfileId = null
    // Once the closes of its stores end (this one's among them, clearing its files).
    await this.closings.removeAll(profileStoreFiles(this.deps.userDataDir, profileId))
  }

  /**
   * A profile was saved. Same origin: the next call builds a new client. Another origin: the
   * token stays with the server that issued it, so the session ends (keychain entry removed).
   */
  async profileUpdated(before: Profile | null, after: Profile): Promise<void> {
    const s = this.active?.profile.id === after.id ? this.active : null
    if (!before || originOf(before.baseUrl) === originOf(after.baseUrl)) {
      if (s) s.profile = after
      return
    }
    if (s) {
      this.endedReason = addressChangedMessage(after.name)
      this.retire(s, false)
      this.deps.onChange(this.state())
    }
    this.deps.profiles.setUser(after.id, null)
    await this.tokens.remove(after.id)
  }

  async dispose(): Promise<void> {
    const s = this.active
    if (s) {
      s.retired = true
      this.active = null
      void this.closeStore(s)
    }
    await this.closings.all()
  }
}
