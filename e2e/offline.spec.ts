/**
 * Offline: browse → the server goes away → restart the app → everything seen is still browsable,
 * with the offline state shown → edit offline (queued in the outbox) → the server comes back →
 * the edit arrives on the server.
 */
import { test, expect } from './support/fixtures'
import { signInToServer, tid } from './support/ui'

test('browsing works offline after a restart and offline edits reach the server', async ({ app, remote }) => {
  let page = app.page
  await signInToServer(page, remote)
  await page.evaluate(async () => {
    const tag = await window.agentDesk.tags.create({ name: 'ops', color: '#AA3300' })
    const agent = await window.agentDesk.agents.create({
      name: 'Night watch',
      type: 'REACT',
      llm: { provider: 'openai', model: 'gpt-4o' },
      tags: [tag.data.id]
    })
    const doc = await window.agentDesk.documents.create({
      name: 'Runbook',
      type: 'TXT',
      url: 'https://example.com/r.txt'
    })
    await window.agentDesk.agentDocuments.create({ agentId: agent.data.id, documentId: doc.data.id })
  })
  // Browse once online: the agent and its detail, the documents list.
  await page.reload()
  await tid(page, 'agent-row').filter({ hasText: 'Night watch' }).click()
  await expect(tid(page, 'linked-document').filter({ hasText: 'Runbook' })).toBeVisible()
  await tid(page, 'nav-documents').click()
  await expect(tid(page, 'document-row').filter({ hasText: 'Runbook' })).toBeVisible()
  await tid(page, 'nav-tags').click()
  await expect(tid(page, 'tag-row').filter({ hasText: 'ops' })).toBeVisible()

  await remote.stop()
  page = await app.restart()

  await expect(tid(page, 'nav-agents')).toBeVisible()
  await expect(tid(page, 'agent-row').filter({ hasText: 'Night watch' })).toBeVisible()
  await expect(tid(page, 'offline-badge').first()).toContainText(/offline/i)
  await expect(tid(page, 'offline-badge').first()).toContainText(/last synced/i)
  await tid(page, 'agent-row').filter({ hasText: 'Night watch' }).click()
  await expect(tid(page, 'agent-tags')).toContainText('ops')
  await expect(tid(page, 'linked-document').filter({ hasText: 'Runbook' })).toBeVisible()

  // Edit offline: rename the document. It is queued, shown as pending.
  await tid(page, 'nav-documents').click()
  await tid(page, 'document-row').filter({ hasText: 'Runbook' }).click()
  const detail = tid(page, 'document-detail')
  await detail.getByTestId('rename-button').click()
  await detail.getByTestId('field-name').fill('Runbook (night)')
  await detail.getByTestId('save-button').click()
  await expect(tid(page, 'outbox-count')).toBeVisible()
  await tid(page, 'nav-outbox').click()
  await expect(tid(page, 'outbox-entry')).toHaveCount(1)
  await expect(tid(page, 'outbox-entry')).toHaveAttribute('data-status', 'pending')
  await expect(tid(page, 'outbox-entry')).toContainText('Runbook (night)')

  // The server comes back: the app reconnects by itself and replays the outbox.
  await remote.start()
  await expect(tid(page, 'outbox-entry')).toHaveCount(0, { timeout: 45_000 })
  await expect(tid(page, 'offline-badge')).toHaveCount(0, { timeout: 45_000 })

  const names = await page.evaluate(async () =>
    (await window.agentDesk.documents.list()).data.map((d) => d.name)
  )
  expect(names).toContain('Runbook (night)')
  // Straight from the server, not from the app's cache.
  const signIn = await fetch(`${remote.url}/api/v1/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: remote.email, password: remote.password })
  })
  const token = ((await signIn.json()) as { data: { token: string } }).data.token
  const docs = await fetch(`${remote.url}/api/v1/documents`, {
    headers: { Authorization: `Bearer ${token}` }
  })
  const body = (await docs.json()) as { data: { name: string }[] }
  expect(body.data.map((d) => d.name)).toContain('Runbook (night)')
})
