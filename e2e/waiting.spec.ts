/**
 * Waiting with a way out (issue 12, item 20) in the real window: a server whose sign-in never
 * answers (a gate in front of the origin-like server holds it). The window offers Cancel, which
 * reaches main through the IPC table (calls.cancel) and closes the request; the Local workspace
 * button stays usable meanwhile and, clicked, cancels the hung sign-in and opens the workspace.
 */
import { test, expect } from './support/fixtures'
import { addProfile, signInWithPassword, tid } from './support/ui'
import type { TestServer } from './support/servers'
import { startGateServer, type GateServer } from '../test/servers/gateServer'
import { ORIGIN_DEFAULT_USER, startOriginLikeServer } from '../test/servers/originLikeServer'

let gate: GateServer
let closeOrigin: () => Promise<void>
test.beforeEach(async () => {
  const origin = await startOriginLikeServer()
  closeOrigin = () => origin.close()
  gate = await startGateServer(origin.url)
  gate.hold = (r) => r.path === '/api/v1/auth/sign-in'
})
test.afterEach(async () => {
  await gate.close()
  await closeOrigin()
})

const hungServer = (): TestServer => ({
  url: gate.url,
  email: ORIGIN_DEFAULT_USER.email,
  password: ORIGIN_DEFAULT_USER.password,
  external: false,
  stop: async () => undefined,
  start: async () => undefined,
  dispose: async () => undefined
})

test('a sign-in that does not answer can be cancelled', async ({ app }) => {
  const { page } = app
  await addProfile(page, 'Hung server', hungServer())
  await signInWithPassword(page, ORIGIN_DEFAULT_USER.email, ORIGIN_DEFAULT_USER.password)
  await expect.poll(() => gate.held.length).toBe(1)
  await tid(page, 'signin-cancel').click()
  await expect(tid(page, 'signin-cancel')).toBeHidden()
  await expect(tid(page, 'signin-submit')).toBeEnabled()
  await expect(tid(page, 'signin-error')).toBeHidden()
  await expect.poll(() => gate.held[0]?.closedAt ?? null).not.toBeNull()
  await expect(tid(page, 'signin-email')).toHaveValue(ORIGIN_DEFAULT_USER.email)
})

test('the Local workspace opens while a server sign-in hangs', async ({ app }) => {
  const { page } = app
  await addProfile(page, 'Hung server', hungServer())
  await signInWithPassword(page, ORIGIN_DEFAULT_USER.email, ORIGIN_DEFAULT_USER.password)
  await expect.poll(() => gate.held.length).toBe(1)
  await expect(tid(page, 'local-workspace-button')).toBeEnabled()
  await tid(page, 'local-workspace-button').click()
  await expect(tid(page, 'nav-agents')).toBeVisible()
  await expect(tid(page, 'profile-name')).toContainText('Local workspace')
  await expect.poll(() => gate.held[0]?.closedAt ?? null).not.toBeNull()
})
