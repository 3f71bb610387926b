/**
 * Edits survive: what is typed into an item's form is kept as a draft when the user switches rows
 * or views and across a restart; the list marks the item; saving (or going back to the item's
 * values) drops the draft. Drafts are kept by main in the profile's offline store.
 */
import { test, expect } from './support/fixtures'
import { openLocalWorkspace, settled, signInToServer, tid } from './support/ui'

test('a tool edit survives switching rows, views and a restart; the row is marked until saved', async ({
  app
}) => {
  let page = app.page
  await openLocalWorkspace(page)
  const ids = await page.evaluate(async () => {
    const api = window.agentDesk
    const a = (await api.tools.create({ name: 'Alpha', type: 'SEARCH', description: 'first' })).data
    const b = (await api.tools.create({ name: 'Beta', type: 'SEARCH', description: 'second' })).data
    return { a: a.id, b: b.id }
  })
  const base = page.url().replace(/#.*$/, '')
  await page.goto(`${base}#/tools/${ids.a}`)
  const detail = tid(page, 'tool-detail')
  await expect(detail.getByTestId('detail-name')).toHaveText('Alpha')
  await settled(page)
  await detail.getByTestId('field-description').fill('first, edited but not saved')

  const rowA = tid(page, 'tool-row').filter({ hasText: 'Alpha' })
  await expect(rowA.getByTestId('row-draft')).toHaveAttribute('aria-label', 'Unsaved changes')
  await expect(tid(page, 'tool-row').filter({ hasText: 'Beta' }).getByTestId('row-draft')).toHaveCount(0)

  // Another row, another view, back: still there.
  await tid(page, 'tool-row').filter({ hasText: 'Beta' }).click()
  await expect(detail.getByTestId('detail-name')).toHaveText('Beta')
  await tid(page, 'nav-agents').click()
  await tid(page, 'nav-tools').click()
  await rowA.click()
  await expect(detail.getByTestId('field-description')).toHaveValue('first, edited but not saved')

  // A restart: still there, still marked; the server has not seen it.
  page = await app.restart()
  await page.goto(`${base}#/tools/${ids.a}`)
  await expect(tid(page, 'tool-detail').getByTestId('field-description')).toHaveValue(
    'first, edited but not saved'
  )
  await expect(tid(page, 'tool-row').filter({ hasText: 'Alpha' }).getByTestId('row-draft')).toBeVisible()
  const onServer = await page.evaluate(
    async (id) => (await window.agentDesk.tools.get({ id })).data.description,
    ids.a
  )
  expect(onServer).toBe('first')
  // Kept by main in the profile's offline store, not in the page's storage.
  const kept = await page.evaluate(async () => ({
    main: (await window.agentDesk.drafts.list()).map((d) => d.key),
    page: Object.keys(localStorage).filter((k) => k.includes('draft'))
  }))
  expect(kept).toEqual({ main: [`tool-edit:${ids.a}`], page: [] })

  // Saved: the draft and the mark go.
  await settled(page)
  await tid(page, 'tool-detail').getByTestId('save-button').click()
  await expect(page.locator('.n-message', { hasText: /saved/i }).first()).toBeVisible()
  await expect(tid(page, 'tool-row').filter({ hasText: 'Alpha' }).getByTestId('row-draft')).toHaveCount(0)
  page = await app.restart()
  await page.goto(`${base}#/tools/${ids.a}`)
  await expect(tid(page, 'tool-detail').getByTestId('field-description')).toHaveValue(
    'first, edited but not saved'
  )
  await expect(tid(page, 'row-draft')).toHaveCount(0)

  // Typing back the item's own value keeps no draft either.
  await settled(page)
  const field = tid(page, 'tool-detail').getByTestId('field-description')
  await field.fill('changed')
  await expect(tid(page, 'row-draft')).toHaveCount(1)
  await field.fill('first, edited but not saved')
  await expect(tid(page, 'row-draft')).toHaveCount(0)
})

test('delete (a tool, a document): the item goes at once with Undo; Undo brings it back unsent, otherwise it is sent', async ({
  app
}) => {
  const { page } = app
  await openLocalWorkspace(page)
  const ids = await page.evaluate(async () => ({
    tools: (await window.agentDesk.tools.create({ name: 'Keep me', type: 'SEARCH', description: 'x' })).data
      .id,
    documents: (
      await window.agentDesk.documents.create({
        name: 'Keep me',
        type: 'PDF',
        url: 'https://example.com/k.pdf'
      })
    ).data.id
  }))
  const base = page.url().replace(/#.*$/, '')
  for (const kind of ['tools', 'documents'] as const) {
    const one = kind === 'tools' ? 'tool' : 'document'
    const id = ids[kind]
    const serverHas = () =>
      page.evaluate(
        async ({ k, itemId }) => (await window.agentDesk[k].list()).data.some((i) => i.id === itemId),
        { k: kind, itemId: id }
      )
    const row = tid(page, `${one}-row`).filter({ hasText: 'Keep me' })
    const deleteIt = async () => {
      await page.goto(`${base}#/${kind}/${id}`)
      await settled(page)
      await tid(page, `${one}-detail`).getByTestId('delete-button').click()
      await tid(page, 'confirm-delete').click()
      await expect(page).toHaveURL(new RegExp(`#/${kind}$`))
      await expect(row).toHaveCount(0)
    }

    await deleteIt()
    await tid(page, 'undo-button').click()
    await expect(row).toHaveCount(1)
    expect(await serverHas()).toBe(true)

    await deleteIt()
    await expect(tid(page, 'undo-button')).toBeVisible()
    await expect.poll(serverHas, { timeout: 20_000 }).toBe(false)
    await expect(row).toHaveCount(0)
  }
})

test('unlink (agent pane and link view) and tag delete: gone at once with Undo, sent only after it', async ({
  app
}) => {
  const { page } = app
  await openLocalWorkspace(page)
  const ids = await page.evaluate(async () => {
    const api = window.agentDesk
    const agent = (
      await api.agents.create({
        name: 'Librarian',
        type: 'REACT',
        llm: { provider: 'openai', model: 'gpt-4o' }
      })
    ).data
    const doc = (
      await api.documents.create({ name: 'Handbook', type: 'PDF', url: 'https://example.com/h.pdf' })
    ).data
    const link = (await api.agentDocuments.create({ agentId: agent.id, documentId: doc.id })).data
    const tag = (await api.tags.create({ name: 'ephemeral', color: '#123456' })).data
    return { agent: agent.id, link: link.id, tag: tag.id }
  })
  const linkOnServer = () =>
    page.evaluate(
      async (a) => (await window.agentDesk.agentDocuments.list({ agentId: a })).data.length,
      ids.agent
    )
  const base = page.url().replace(/#.*$/, '')
  const linked = tid(page, 'agent-detail').getByTestId('linked-document').filter({ hasText: 'Handbook' })

  // From the agent's pane: Undo brings the link back and nothing was sent.
  await page.goto(`${base}#/agents/${ids.agent}`)
  await expect(linked).toBeVisible()
  await settled(page)
  await linked.getByTestId('unlink-button').click()
  await expect(linked).toHaveCount(0)
  await tid(page, 'undo-button').click()
  await expect(linked).toBeVisible()
  expect(await linkOnServer()).toBe(1)

  // From the link's own view: the same toast, back on the agent; without Undo it is sent.
  await page.goto(`${base}#/agent-documents/${ids.link}`)
  await expect(tid(page, 'agent-document-detail')).toContainText('Handbook')
  await settled(page)
  await tid(page, 'agent-document-detail').getByTestId('unlink-button').click()
  await expect(page).toHaveURL(new RegExp(`#/agents/${ids.agent}$`))
  await expect(tid(page, 'undo-button')).toBeVisible()
  await expect(linked).toHaveCount(0)
  await expect.poll(linkOnServer, { timeout: 20_000 }).toBe(0)
  await expect(linked).toHaveCount(0)

  // A tag: the row goes with Undo; Undo brings it back unsent.
  await tid(page, 'nav-tags').click()
  const row = tid(page, 'tag-row').filter({ hasText: 'ephemeral' })
  await expect(row).toBeVisible()
  await settled(page)
  await row.getByTestId('delete-button').click()
  await tid(page, 'confirm-delete').click()
  await expect(row).toHaveCount(0)
  await tid(page, 'undo-button').click()
  await expect(row).toBeVisible()
  const tagOnServer = await page.evaluate(
    async (id) => (await window.agentDesk.tags.list()).data.some((t) => t.id === id),
    ids.tag
  )
  expect(tagOnServer).toBe(true)
})

test('opening an agent reads it again; offline the pane says how old its saved copy is', async ({
  app,
  remote
}) => {
  let page = app.page
  await signInToServer(page, remote)
  const id = await page.evaluate(
    async () =>
      (
        await window.agentDesk.agents.create({
          name: 'Night watch',
          type: 'REACT',
          llm: { provider: 'openai', model: 'gpt-4o' }
        })
      ).data.id
  )
  await page.reload()
  await expect(tid(page, 'agent-row').filter({ hasText: 'Night watch' })).toBeVisible()
  await settled(page)

  // Renamed on the server behind the app's back (another client).
  const api = `${remote.url}/api/v1`
  const signIn = (await (
    await fetch(`${api}/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: remote.email, password: remote.password })
    })
  ).json()) as { data?: { token: string }; token?: string }
  const token = signIn.data?.token ?? signIn.token ?? ''
  const renamed = await fetch(`${api}/agents/${id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: 'Day watch' })
  })
  expect(renamed.ok).toBe(true)

  // The list is older than the agent; opening it shows the server's version, and the row follows.
  await tid(page, 'agent-row').filter({ hasText: 'Night watch' }).click()
  await expect(tid(page, 'agent-detail')).toContainText('Day watch')
  await expect(tid(page, 'agent-row').filter({ hasText: 'Day watch' })).toBeVisible()
  await expect(tid(page, 'stale-note')).toHaveCount(0)

  await remote.stop()
  page = await app.restart()
  await page.goto(page.url().replace(/#.*$/, `#/agents/${id}`))
  await expect(tid(page, 'agent-detail')).toContainText('Day watch')
  await expect(tid(page, 'stale-note')).toContainText(/Offline — saved copy from (just now|\d+ minutes? ago)/)
})
