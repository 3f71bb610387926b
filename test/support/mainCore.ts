/**
 * Helpers for the main-process tests (not a test file): a core on a temp user-data folder and
 * small typed wrappers around `core.invoke`.
 */
import type { AppErrorData } from '../../src/shared/errors'
import {
  buildDeskApi,
  CHANNELS,
  EVENT_NAMES,
  type Channel,
  type ChannelInput,
  type ChannelResult,
  type DeskApi,
  type EventName
} from '../../src/shared/ipc'
import { createCore, type Core, type CoreOptions } from '../../src/main/core'
import { memoryKeychain, type Keychain } from '../../src/main/keychain'
import { startService } from '../../src/service'
import { testServiceThread } from './serviceThread'
import { tempDir } from './tempDirs'
import { wholeReply } from './wholeReply'

export { tempDir }

export interface TestCore {
  core: Core
  keychain: Keychain
  userDataDir: string
  events: { event: EventName; payload: unknown }[]
  opened: string[]
  call<C extends Channel>(channel: C, input?: ChannelInput<C>): Promise<ChannelResult<C>>
  fail<C extends Channel>(channel: C, input?: unknown): Promise<AppErrorData>
  /** Every answer so far, as JSON text (to scan for secrets). */
  transcript: string[]
}

export function testCore(
  opts: Partial<CoreOptions> & { userDataDir?: string; keychain?: Keychain } = {}
): TestCore {
  const userDataDir = opts.userDataDir ?? tempDir()
  const keychain = opts.keychain ?? memoryKeychain()
  const opened: string[] = []
  const core = createCore({
    mode: 'harness',
    serviceThread: testServiceThread(),
    version: '0.0.0-test',
    fetchTimeoutMs: 3000,
    probeIntervalMs: 200,
    serviceScryptCost: 16,
    openExternal: async (url) => {
      opened.push(url)
    },
    log: () => undefined,
    ...opts,
    userDataDir,
    keychain
  })
  const events: TestCore['events'] = []
  const transcript: string[] = []
  core.subscribe((event, payload) => {
    events.push({ event, payload })
    transcript.push(JSON.stringify(payload))
  })
  return {
    core,
    keychain,
    userDataDir,
    events,
    opened,
    transcript,
    async call(channel, input) {
      const r = await wholeReply(await core.invoke(channel, input), (c, i) => core.invoke(c, i))
      transcript.push(JSON.stringify(r))
      if (!r.ok) throw new Error(`${channel} failed: ${r.error.kind}: ${r.error.message}`)
      return r.value as ChannelResult<typeof channel>
    },
    async fail(channel, input) {
      const r = await core.invoke(channel, input)
      transcript.push(JSON.stringify(r))
      if (r.ok) throw new Error(`${channel} was expected to fail but answered ${JSON.stringify(r.value)}`)
      return r.error
    }
  }
}

/** A test core signed up (as `email`) on a fresh embedded service; `cleanup` closes both. */
export async function coreOnService(cleanup: (() => Promise<void>)[], email: string): Promise<TestCore> {
  return (await coreAndService(cleanup, email)).t
}

/** The same, with the service (to stop it: the core then lists offline, from its cache). */
export async function coreAndService(cleanup: (() => Promise<void>)[], email: string) {
  const service = await startService({
    dataDir: tempDir('agent-desk-svc-'),
    scryptCost: 16,
    logger: () => {}
  })
  cleanup.push(() => service.close())
  const t = testCore()
  cleanup.push(() => t.core.dispose())
  await signedUp(t, service.url, email)
  return { t, service }
}

/** Saves a profile for `baseUrl` and signs a new user up on it (password `password-1`). */
export async function signedUp(t: TestCore, baseUrl: string, email: string): Promise<{ id: string }> {
  const profile = await t.call('profiles.save', { name: 'Test', baseUrl })
  await t.call('session.signUp', { profileId: profile.id, email, password: 'password-1', name: 'Tess' })
  return profile
}

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const start = Date.now()
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('Timed out waiting for a condition')
    await new Promise((r) => setTimeout(r, 50))
  }
}

/**
 * The window API (`window.agentDesk`) over a test core, as the preload builds it: renderer tests
 * talk to the real main-process code through it. `hash` is the page's route at load (early reads);
 * with `events`, main's events (data.changed…) reach the page's listeners as the preload's do.
 */
export function deskApiOver(t: TestCore, hash = '#/', opts: { events?: boolean } = {}): DeskApi {
  return buildDeskApi(
    CHANNELS,
    EVENT_NAMES,
    (channel, input, callId) => t.core.invoke(channel, input, callId),
    opts.events
      ? (event, listener) =>
          t.core.subscribe((e, payload) => {
            if (e === event) listener(payload)
          })
      : () => () => undefined,
    hash
  ) as DeskApi
}
