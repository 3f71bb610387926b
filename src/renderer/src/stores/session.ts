import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { Connectivity, Profile, SessionState } from '../../../shared/ipc'
import { desk } from '../desk'
import { takeEarlySession } from '../earlyReads'
import { emitSessionReset } from '../composables/sessionBus'
import { syncDrafts } from '../composables/drafts'

const identityOf = (s: SessionState | null) =>
  s && s.status === 'signedIn' ? `${s.profile?.id ?? ''}|${s.user?.id ?? ''}` : null

/**
 * The session: state from `session.get`, kept current by `session.changed` and
 * `connectivity.changed`. When a session ends while the user works (status becomes signedOut with
 * an endedReason), `reauthRequired` turns true and the app shows a sign-in modal over the current
 * page, so the page and any form draft survive.
 */
export const useSessionStore = defineStore('session', () => {
  const state = shallowRef<SessionState | null>(null)
  const profiles = ref<Profile[]>([])
  const ready = ref(false)
  /** Increments each time a session starts (views reload their data on change). */
  const epoch = ref(0)
  const reauthRequired = ref(false)
  /** The profile of the current or last session (kept when a session ends, to sign in again). */
  const lastProfile = shallowRef<Profile | null>(null)
  let lastIdentity: string | null = null
  let initPromise: Promise<void> | null = null

  const signedIn = computed(() => state.value?.status === 'signedIn')
  const profile = computed(() => state.value?.profile ?? null)
  const user = computed(() => state.value?.user ?? null)
  const connectivity = computed<Connectivity>(
    () => state.value?.connectivity ?? { online: true, lastSyncedAt: null }
  )
  const offline = computed(() => signedIn.value && !connectivity.value.online)
  const endedReason = computed(() => state.value?.endedReason ?? null)

  function apply(next: SessionState): void {
    const prev = state.value
    state.value = next
    if (next.profile) lastProfile.value = next.profile
    if (next.status === 'signedIn') {
      const id = identityOf(next)
      if (lastIdentity !== null && id !== lastIdentity) emitSessionReset()
      lastIdentity = id
      void syncDrafts(id)
      if (prev?.status !== 'signedIn') epoch.value++
      reauthRequired.value = false
    } else if (prev?.status === 'signedIn' && next.endedReason) {
      // Ended under the user's feet: keep everything, ask to sign in again.
      reauthRequired.value = true
    } else if (!next.endedReason) void syncDrafts(null)
  }

  function setConnectivity(c: Connectivity): void {
    if (!state.value) return
    state.value = { ...state.value, connectivity: c }
  }

  function init(): Promise<void> {
    if (initPromise) return initPromise
    initPromise = (async () => {
      const api = desk()
      api.on('session.changed', (s) => apply(s))
      api.on('connectivity.changed', (c) => setConnectivity(c))
      try {
        // Asked by the preload as the page loaded (an answer already here applies at once), or now.
        const early = takeEarlySession()
        if (early && 'value' in early) apply(early.value)
        else apply(await (early?.promise ?? api.session.get()))
      } finally {
        ready.value = true
      }
    })()
    return initPromise
  }

  async function loadProfiles(): Promise<Profile[]> {
    profiles.value = await desk().profiles.list()
    return profiles.value
  }

  async function saveProfile(input: {
    id?: string
    name: string
    baseUrl: string
    insecure?: boolean
  }): Promise<Profile> {
    const saved = await desk().profiles.save(input)
    const i = profiles.value.findIndex((p) => p.id === saved.id)
    if (i >= 0) profiles.value.splice(i, 1, saved)
    else profiles.value.push(saved)
    return saved
  }

  async function removeProfile(id: string): Promise<void> {
    await desk().profiles.remove({ id })
    profiles.value = profiles.value.filter((p) => p.id !== id)
  }

  async function startLocal(): Promise<SessionState> {
    const s = await desk().session.startLocal()
    apply(s)
    return s
  }

  async function signIn(profileId: string, email: string, password: string): Promise<SessionState> {
    const s = await desk().session.signIn({ profileId, email, password })
    apply(s)
    return s
  }

  async function signInWithToken(profileId: string, token: string): Promise<SessionState> {
    const s = await desk().session.signInWithToken({ profileId, token })
    apply(s)
    return s
  }

  async function signUp(
    profileId: string,
    input: { email: string; password: string; name: string }
  ): Promise<SessionState> {
    const s = await desk().session.signUp({ profileId, ...input })
    apply(s)
    return s
  }

  async function signOut(clearCache: boolean): Promise<SessionState> {
    const s = await desk().session.signOut({ clearCache })
    lastIdentity = null
    reauthRequired.value = false
    state.value = s
    emitSessionReset()
    return s
  }

  async function reconnect(): Promise<Connectivity> {
    const c = await desk().session.reconnect()
    setConnectivity(c)
    return c
  }

  /** Dismisses the sign-in modal without signing in (the user chose to sign out instead). */
  function dismissReauth(): void {
    reauthRequired.value = false
  }

  return {
    state,
    profiles,
    ready,
    epoch,
    reauthRequired,
    lastProfile,
    signedIn,
    profile,
    user,
    connectivity,
    offline,
    endedReason,
    init,
    apply,
    loadProfiles,
    saveProfile,
    removeProfile,
    startLocal,
    signIn,
    signInWithToken,
    signUp,
    signOut,
    reconnect,
    dismissReauth
  }
})
