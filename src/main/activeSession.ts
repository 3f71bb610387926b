/** One signed-in session: profile, user, token (memory only), API client and offline store. */
import type { Profile } from '../shared/ipc'
import type { ApiClient } from './api/client'
import type { openOfflineStore } from './offline'
import type { StoredUser } from './profiles'

export type OpenedStore = ReturnType<typeof openOfflineStore>

export class ActiveSession {
  client: ApiClient | null = null
  clientBaseUrl = ''
  /** Local workspace: a fresh token was issued in this run. */
  localFresh = false
  refs = 0
  retired = false
  clearOnClose = false
  /** The origin that issued `token`: the transport attaches it to no other. */
  tokenOrigin: string | null = null
  constructor(
    readonly generation: number,
    public profile: Profile,
    public user: StoredUser,
    public token: string | null,
    readonly store: OpenedStore,
    readonly storeFile: string
  ) {}
  get cache(): OpenedStore['cache'] {
    return this.store.cache
  }
  get outbox(): OpenedStore['outbox'] {
    return this.store.outbox
  }
  get drafts(): OpenedStore['drafts'] {
    return this.store.drafts
  }
}
