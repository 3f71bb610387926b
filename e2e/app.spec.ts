import { test, expect } from './support/fixtures'
import { addProfile, openLocalWorkspace, signInToServer, signInWithPassword, tid } from './support/ui'

test('a new user opens the Local workspace and lands on the agents list', async ({ app }) => {
  const { page } = app
  await expect(tid(page, 'signin-view')).toBeVisible()
  await openLocalWorkspace(page)
  await expect(tid(page, 'profile-name')).toContainText('Local workspace')
  await expect(tid(page, 'list-empty').or(tid(page, 'agent-list'))).toBeVisible()
  // The renderer never sees a session token: nothing in its storage looks like one.
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + document.cookie)
  expect(storage).not.toMatch(/eyJ|token/i)
})

test('signs in to a server profile and signs out again @remote', async ({ app, origin }) => {
  const { page } = app
  await signInToServer(page, origin)
  await expect(tid(page, 'session-user')).toContainText(/\S/)
  await tid(page, 'signout-button').click()
  await tid(page, 'signout-confirm').click()
  await expect(tid(page, 'signin-view')).toBeVisible()
})

test('a wrong password gets a clear message and keeps what was typed @remote', async ({ app, origin }) => {
  const { page } = app
  await addProfile(page, 'Team server', origin)
  await signInWithPassword(page, origin.email, 'definitely-not-the-password')
  await expect(tid(page, 'signin-error')).toContainText(/wrong e-mail or password/i)
  await expect(tid(page, 'signin-email')).toHaveValue(origin.email)
})

test('the session survives an app restart (token read back from the keychain)', async ({ app, remote }) => {
  await signInToServer(app.page, remote)
  const page = await app.restart()
  await expect(tid(page, 'nav-agents')).toBeVisible()
  await expect(tid(page, 'profile-name')).toContainText('Team server')
})
