/**
 * Every resource through the UI against the embedded service (Local workspace):
 * create → view → edit → delete, tag colour picking, drag-to-link, and a refusal that keeps input.
 */
import { test, expect } from './support/fixtures'
import { choose, openLocalWorkspace, settled, tid } from './support/ui'
import type { Page } from '@playwright/test'

test.beforeEach(async ({ app }) => {
  await openLocalWorkspace(app.page)
})

async function confirmDelete(page: Page) {
  await settled(page)
  await tid(page, 'delete-button').first().click()
  await tid(page, 'confirm-delete').click()
}

test('tags: pick a colour from the presets, type a short hex, edit and delete', async ({ app }) => {
  const { page } = app
  await tid(page, 'nav-tags').click()
  const form = tid(page, 'tag-form').last()
  await form.getByTestId('field-name').fill('urgent')
  // Colour picking with naive-ui's picker: open it and take a preset swatch.
  await form.getByTestId('tag-color-picker').click()
  await page.locator('.n-color-picker-swatch').nth(2).click()
  await expect(form.getByTestId('tag-color-value')).toHaveText(/^#[0-9A-F]{6}$/)
  await page.keyboard.press('Escape')
  await form.getByTestId('field-name').click()
  await expect(page.locator('.n-color-picker-panel')).toHaveCount(0)
  // A typed #abc is shown and saved as #AABBCC.
  await form.getByTestId('field-color').fill('#abc')
  await form.getByTestId('field-color').blur()
  await expect(form.getByTestId('tag-color-value')).toHaveText('#AABBCC')
  await form.getByTestId('save-button').click()
  const row = tid(page, 'tag-row').filter({ hasText: 'urgent' })
  await expect(row.getByTestId('tag-row-color')).toHaveText('#AABBCC')

  await settled(page)
  await row.getByTestId('edit-button').click()
  const edit = tid(page, 'tag-form').first()
  await edit.getByTestId('field-color').fill('#0e8a16')
  await edit.getByTestId('field-color').blur()
  await edit.getByTestId('save-button').click()
  await expect(row.getByTestId('tag-row-color')).toHaveText('#0E8A16')

  await row.getByTestId('delete-button').click()
  await tid(page, 'confirm-delete').click()
  await expect(tid(page, 'tag-row').filter({ hasText: 'urgent' })).toHaveCount(0)
})

test('agents: create with a tag, view, edit, delete', async ({ app }) => {
  const { page } = app
  await page.evaluate(() => window.agentDesk.tags.create({ name: 'support', color: '#1E90FF' }))
  await tid(page, 'nav-agents').click()
  await tid(page, 'new-agent-button').click()
  const form = tid(page, 'agent-form')
  await form.getByTestId('field-name').fill('Helpdesk bot')
  await choose(page, 'field-type', 'ReAct')
  await form.getByTestId('field-llm-provider').fill('openai')
  await form.getByTestId('field-llm-model').fill('gpt-4o-mini')
  await choose(page, 'field-tags', 'support')
  await page.keyboard.press('Escape')
  await form.getByTestId('save-button').click()

  const detail = tid(page, 'agent-detail')
  await expect(detail.getByTestId('agent-name')).toHaveText('Helpdesk bot')
  // The type in words, the value the server uses in its tooltip.
  await expect(detail.getByTestId('agent-type')).toHaveText('ReAct')
  await expect(detail.getByTestId('agent-type')).toHaveAttribute('title', 'REACT')
  await expect(detail.getByTestId('agent-llm')).toContainText('gpt-4o-mini')
  await expect(detail.getByTestId('agent-tags')).toContainText('support')
  await expect(tid(page, 'agent-row').filter({ hasText: 'Helpdesk bot' })).toBeVisible()

  // The detail's refresh after the save has landed: the edit form opens on the stored agent.
  await settled(page)
  await detail.getByTestId('edit-button').click()
  await tid(page, 'agent-form').getByTestId('field-name').fill('Helpdesk bot v2')
  await tid(page, 'agent-form').getByTestId('save-button').click()
  await expect(detail.getByTestId('agent-name')).toHaveText('Helpdesk bot v2')

  await confirmDelete(page)
  await expect(tid(page, 'agent-row').filter({ hasText: 'Helpdesk bot' })).toHaveCount(0)
})

test('a refusal from the server keeps everything the user typed', async ({ app }) => {
  const { page } = app
  await tid(page, 'nav-agents').click()
  await tid(page, 'new-agent-button').click()
  const form = tid(page, 'agent-form')
  await form.getByTestId('field-name').fill('Keeps my input')
  await form.getByTestId('field-llm-provider').fill('anthropic')
  await form.getByTestId('field-llm-model').fill('claude')
  // A prompt id that does not exist: the client cannot know, the server refuses it.
  await form.getByTestId('field-promptId').click()
  await page.keyboard.type('no-such-prompt')
  await page.keyboard.press('Enter')
  await form.getByTestId('save-button').click()
  await expect(form.getByTestId('error-promptId').or(form.getByTestId('form-error'))).toContainText(/prompt/i)
  await expect(form.getByTestId('field-name')).toHaveValue('Keeps my input')
  await expect(form.getByTestId('field-llm-model')).toHaveValue('claude')
})

test('documents: create with every field, view, rename, delete', async ({ app }) => {
  const { page } = app
  await tid(page, 'nav-documents').click()
  await tid(page, 'new-button').click()
  const form = tid(page, 'document-form')
  await form.getByTestId('field-name').fill('Handbook')
  await choose(page, 'field-type', 'PDF')
  await form.getByTestId('field-url').fill('https://example.com/handbook.pdf')
  await form.getByTestId('field-from_page').fill('2')
  await form.getByTestId('field-to_page').fill('10')
  await form.getByTestId('metadata-add').click()
  await form.getByTestId('metadata-key').last().fill('lang')
  await form.getByTestId('metadata-value').last().fill('en')
  await form.getByTestId('field-authorization').fill('{ "type": "bearer", "token": "doc-s3cret" }')
  await form.getByTestId('save-button').click()

  const detail = tid(page, 'document-detail')
  await expect(detail.getByTestId('detail-name')).toHaveText('Handbook')
  await expect(detail.getByTestId('detail-url')).toContainText('https://example.com/handbook.pdf')
  await expect(detail.getByTestId('detail-metadata')).toContainText('lang')
  // No splitter: the same dash as the other empty fields, in the pane's font (not a code block's).
  const splitter = detail.getByTestId('detail-splitter')
  await expect(splitter).toHaveText('—')
  const font = (el: Element) => getComputedStyle(el).fontFamily
  expect(await splitter.evaluate(font)).toBe(await detail.getByTestId('detail-url').evaluate(font))
  // The authorization is a secret: masked until revealed, like an API token.
  const auth = detail.getByTestId('detail-authorization')
  await expect(auth).toHaveText('{ "type": "••••••••", "token": "••••••••" }')
  await expect(detail).not.toContainText('doc-s3cret')
  await detail.getByTestId('detail-authorization-reveal').click()
  await expect(auth).toContainText('doc-s3cret')
  await detail.getByTestId('detail-authorization-reveal').click()
  await expect(auth).not.toContainText('doc-s3cret')

  await settled(page)
  await detail.getByTestId('rename-button').click()
  await detail.getByTestId('field-name').fill('Staff handbook')
  await detail.getByTestId('save-button').click()
  await expect(detail.getByTestId('detail-name')).toHaveText('Staff handbook')
  await expect(tid(page, 'document-row').filter({ hasText: 'Staff handbook' })).toBeVisible()

  await confirmDelete(page)
  await expect(tid(page, 'document-row').filter({ hasText: 'Staff handbook' })).toHaveCount(0)
})

test('tools: create, edit configuration (invalid JSON refused), delete', async ({ app }) => {
  const { page } = app
  await tid(page, 'nav-tools').click()
  await tid(page, 'new-button').click()
  const form = tid(page, 'tool-form')
  await form.getByTestId('field-name').fill('Web search')
  await choose(page, 'field-type', /^Search$/)
  await form.getByTestId('field-description').fill('Searches the web')
  await form.getByTestId('save-button').click()

  const detail = tid(page, 'tool-detail')
  await expect(detail.getByTestId('detail-name')).toHaveText('Web search')
  // Typed text must not be replaced by a refresh of the pane that lands after it.
  await settled(page)
  const json = detail.getByTestId('field-metadata')
  await json.fill('{"engine": ')
  await expect(detail.getByTestId('json-error')).toBeVisible()
  await json.fill('{"engine": "duck"}')
  await expect(detail.getByTestId('json-error')).toHaveCount(0)
  await detail.getByTestId('save-button').click()
  await expect(page.locator('.n-message', { hasText: /saved/i }).first()).toBeVisible()
  const stored = await page.evaluate(async () => {
    const list = await window.agentDesk.tools.list()
    const tool = list.data.find((t) => t.name === 'Web search')
    return tool ? (await window.agentDesk.tools.get({ id: tool.id })).data.metadata : null
  })
  expect(stored).toEqual({ engine: 'duck' })

  await confirmDelete(page)
  await expect(tid(page, 'tool-row').filter({ hasText: 'Web search' })).toHaveCount(0)
})

test('prompts: create with live variables, open by id, edit, delete', async ({ app }) => {
  const { page } = app
  await tid(page, 'nav-prompts').click()
  await tid(page, 'new-button').click()
  const form = tid(page, 'prompt-form')
  await form.getByTestId('field-name').fill('Greeting')
  await form.getByTestId('field-template').fill('Hello {name}, welcome to {place}!')
  await expect(form.getByTestId('prompt-variables')).toContainText('name')
  await expect(form.getByTestId('prompt-variables')).toContainText('place')
  await form.getByTestId('save-button').click()
  await expect(tid(page, 'prompt-row').filter({ hasText: 'Greeting' })).toBeVisible()

  const id = await page.evaluate(async () => {
    const list = await window.agentDesk.prompts.list()
    return list.data.find((p) => p.name === 'Greeting')?.id ?? ''
  })
  await tid(page, 'nav-agents').click()
  await tid(page, 'nav-prompts').click()
  await tid(page, 'prompt-open-id').fill(id)
  await tid(page, 'prompt-open-button').click()
  const detail = tid(page, 'prompt-detail')
  await expect(detail.getByTestId('detail-name')).toHaveText('Greeting')
  await settled(page)
  // Variables follow the template as the user types…
  await detail.getByTestId('field-template').fill('Hi {name} and {friend}')
  await expect(detail.getByTestId('field-input_variables')).toContainText('friend')
  await expect(detail.getByTestId('prompt-mismatch')).toHaveCount(0)
  // …until they are edited by hand; then a mismatch is warned about.
  await detail
    .getByTestId('field-input_variables')
    .locator('.n-tag', { hasText: 'friend' })
    .locator('.n-tag__close')
    .click()
  await expect(detail.getByTestId('prompt-mismatch')).toContainText('friend')
  await detail.getByTestId('use-detected-variables').click()
  await expect(detail.getByTestId('prompt-mismatch')).toHaveCount(0)
  await detail.getByTestId('save-button').click()
  await expect
    .poll(async () =>
      page.evaluate(async (pid) => (await window.agentDesk.prompts.get({ id: pid })).data.input_variables, id)
    )
    .toEqual(['name', 'friend'])

  await confirmDelete(page)
  await expect(tid(page, 'prompt-row').filter({ hasText: 'Greeting' })).toHaveCount(0)
})

test('API tokens: create, value masked, reveal, delete', async ({ app }) => {
  const { page } = app
  await tid(page, 'nav-api-tokens').click()
  await tid(page, 'new-button').click()
  await tid(page, 'token-form').getByTestId('field-description').fill('CI pipeline')
  await tid(page, 'token-form').getByTestId('save-button').click()
  const shown = await tid(page, 'token-value').first().innerText()
  expect(shown.length).toBeGreaterThan(8)
  await tid(page, 'token-done').click()

  const row = tid(page, 'token-row').filter({ hasText: 'CI pipeline' })
  await row.click()
  const detail = tid(page, 'token-detail')
  await expect(detail.getByTestId('token-value')).toContainText('••••')
  await detail.getByTestId('token-reveal').click()
  await expect(detail.getByTestId('token-value')).toHaveAttribute('data-revealed', 'true')
  await expect(detail.getByTestId('token-value')).not.toContainText('••••')

  await confirmDelete(page)
  await expect(tid(page, 'token-row').filter({ hasText: 'CI pipeline' })).toHaveCount(0)
})

test('drag a document and a tool onto an agent to link them; keyboard alternative too', async ({ app }) => {
  const { page } = app
  await page.evaluate(async () => {
    await window.agentDesk.agents.create({
      name: 'Linker',
      type: 'CHATVENDOR',
      llm: { provider: 'openai', model: 'gpt-4o' }
    })
    await window.agentDesk.documents.create({
      name: 'Pricing sheet',
      type: 'CSV',
      url: 'https://example.com/p.csv'
    })
    await window.agentDesk.documents.create({ name: 'FAQ', type: 'URL', url: 'https://example.com/faq' })
    await window.agentDesk.tools.create({ name: 'Calculator', type: 'MATHENGINE_ALPHA' })
  })
  await tid(page, 'nav-documents').click()
  await tid(page, 'nav-agents').click()
  const palette = tid(page, 'link-palette')
  const row = tid(page, 'agent-row').filter({ hasText: 'Linker' })
  const pricing = palette.getByTestId('palette-item').filter({ hasText: 'Pricing sheet' })
  // Both ends are on screen and the lists' network refreshes have landed: nothing re-renders
  // under the pointer while it drags (a drag whose source is replaced is cancelled).
  await expect(row).toBeVisible()
  await expect(pricing).toBeVisible()
  await settled(page)

  // Real pointer drag from the palette onto the agent's row in the list.
  await pricing.dragTo(row)
  const detail = tid(page, 'agent-detail')
  // The link is made (a call to main) before the row is opened.
  await settled(page)
  await row.click()
  await expect(detail.getByTestId('linked-document').filter({ hasText: 'Pricing sheet' })).toBeVisible()

  // And onto the detail pane, with drop-target feedback while hovering.
  await palette.getByTestId('palette-kind-tool').click()
  const tool = palette.getByTestId('palette-item').filter({ hasText: 'Calculator' })
  await expect(tool).toBeVisible()
  await settled(page)
  await tool.hover()
  await page.mouse.down()
  const target = detail.getByTestId('drop-target')
  const box = await detail.boundingBox()
  if (!box) throw new Error('agent detail has no box')
  await page.mouse.move(box.x + box.width / 2, box.y + 40, { steps: 8 })
  await expect(detail.getByTestId('drop-hint')).toContainText('Calculator')
  await page.mouse.up()
  await expect(target).toBeVisible()
  await expect(detail.getByTestId('linked-tool').filter({ hasText: 'Calculator' })).toBeVisible()
  await settled(page)

  // Keyboard/menu alternative.
  await choose(page, 'link-document-select', 'FAQ')
  await detail.getByTestId('link-document-button').click()
  await expect(detail.getByTestId('linked-document').filter({ hasText: 'FAQ' })).toBeVisible()

  // The links are real on the server, and a document link opens in its own view.
  const agentId = await row.getAttribute('data-agent-id')
  const links = await page.evaluate(
    (id) => window.agentDesk.agentDocuments.list({ agentId: id ?? '' }),
    agentId
  )
  expect(links.data).toHaveLength(2)
  await detail
    .getByTestId('linked-document')
    .filter({ hasText: 'Pricing sheet' })
    .getByTestId('linked-document-open')
    .click()
  await expect(tid(page, 'agent-document-detail')).toContainText('Pricing sheet')
})
