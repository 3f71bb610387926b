import { test, expect } from './support/fixtures'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import {
  addProfile,
  openLocalWorkspace,
  settled,
  signInToServer,
  signInWithPassword,
  tid
} from './support/ui'

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

test('removes a server profile, and with it what this computer kept of it @remote', async ({
  app,
  remote
}) => {
  const { page } = app
  await signInToServer(page, remote)
  await expect(tid(page, 'list-empty').or(tid(page, 'agent-list'))).toBeVisible()
  await settled(page)
  await tid(page, 'signout-button').click()
  await tid(page, 'signout-confirm').click() // the cache kept
  await expect(tid(page, 'signin-view')).toBeVisible()
  const cached = async () =>
    (await readdir(join(app.userDataDir, 'cache'))).filter((f) => f.includes('.sqlite'))
  expect(await cached()).not.toEqual([])
  await tid(page, 'profile-edit').click()
  await tid(page, 'profile-remove').click()
  await tid(page, 'confirm-delete').click()
  await expect(tid(page, 'profile-form')).toBeHidden()
  await expect(tid(page, 'profile-edit')).toBeHidden() // no server chosen: none is left
  await tid(page, 'profile-select').click()
  await expect(page.locator('.n-base-select-option', { hasText: 'Team server' })).toHaveCount(0)
  expect(await cached()).toEqual([])
})

test('a wrong password gets a clear message and keeps what was typed @remote', async ({ app, origin }) => {
  const { page } = app
  await addProfile(page, 'Team server', origin)
  await signInWithPassword(page, origin.email, 'definitely-not-the-password')
  await expect(tid(page, 'signin-error')).toContainText(/wrong e-mail or password/i)
  await expect(tid(page, 'signin-email')).toHaveValue(origin.email)
})

test('creates an account on a server profile: a short password is refused on its field, then signed in @remote', async ({
  app,
  remote
}) => {
  const { page } = app
  await addProfile(page, 'Team server', remote)
  await page.locator('.n-tabs-tab', { hasText: 'Create account' }).click()
  await tid(page, 'signup-name').fill('New Colleague')
  await tid(page, 'signup-email').fill('new.colleague@example.com')
  await tid(page, 'signup-password').fill('short')
  await tid(page, 'signup-submit').click()
  await expect(page.locator('.n-form-item-feedback', { hasText: 'Use at least 8 characters' })).toBeVisible()
  await expect(tid(page, 'signup-name')).toHaveValue('New Colleague')
  await expect(tid(page, 'signup-email')).toHaveValue('new.colleague@example.com')
  await tid(page, 'signup-password').fill('long enough password')
  await tid(page, 'signup-submit').click()
  await expect(tid(page, 'nav-agents')).toBeVisible()
  await expect(tid(page, 'session-user')).toContainText('New Colleague')
})

test('the session survives an app restart (token read back from the keychain)', async ({ app, remote }) => {
  await signInToServer(app.page, remote)
  const page = await app.restart()
  await expect(tid(page, 'nav-agents')).toBeVisible()
  await expect(tid(page, 'profile-name')).toContainText('Team server')
})

test('when the server rejects the credential, sign-in is asked for over the page and nothing typed is lost', async ({
  app,
  remote
}) => {
  const { page } = app
  // An API token made on the server, used to sign in; deleting it on the server ends the session.
  const api = async (path: string, init: RequestInit & { token?: string } = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (init.token) headers.Authorization = `Bearer ${init.token}`
    const res = await fetch(`${remote.url}/api/v1${path}`, { ...init, headers })
    return (await res.json()) as { data: Record<string, string> }
  }
  const session = (
    await api('/auth/sign-in', {
      method: 'POST',
      body: JSON.stringify({ email: remote.email, password: remote.password })
    })
  ).data.token
  const created = (
    await api('/api-tokens', {
      method: 'POST',
      body: JSON.stringify({ description: 'desk' }),
      token: session
    })
  ).data

  await addProfile(page, 'Team server', remote)
  await page.locator('.n-tabs-tab', { hasText: 'API token' }).click()
  await tid(page, 'signin-token').fill(created.token ?? '')
  await tid(page, 'signin-token-submit').click()
  await expect(tid(page, 'nav-agents')).toBeVisible()

  await tid(page, 'new-agent-button').click()
  const form = tid(page, 'agent-form')
  await form.getByTestId('field-name').fill('Typed before the session ended')
  await form.getByTestId('field-llm-provider').fill('openai')
  await form.getByTestId('field-llm-model').fill('gpt-4o')

  await api(`/api-tokens/${created.id}`, { method: 'DELETE', token: session })
  await form.getByTestId('save-button').click()

  const modal = tid(page, 'signin-modal')
  await expect(modal).toBeVisible()
  await expect(modal.getByTestId('session-ended')).toBeVisible()
  await modal.getByTestId('signin-email').fill(remote.email)
  await modal.getByTestId('signin-password').fill(remote.password)
  await modal.getByTestId('signin-submit').click()
  await expect(modal).toBeHidden()
  await expect(form.getByTestId('field-name')).toHaveValue('Typed before the session ended')
  await form.getByTestId('save-button').click()
  await expect(tid(page, 'agent-detail').getByTestId('agent-name')).toHaveText(
    'Typed before the session ended'
  )
})
