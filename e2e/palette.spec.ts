/**
 * Keyboard first: the command palette (Ctrl+K) over every item and command, also offline; the
 * shortcut cheat-sheet (Ctrl+/); views by number; `/` focuses the filter; ↑/↓ move through a
 * list with the active row announced (aria-activedescendant); Delete asks before it deletes.
 */
import type { Page } from '@playwright/test'
import { test, expect } from './support/fixtures'
import { openLocalWorkspace, settled, signInToServer, tid } from './support/ui'

const palette = (page: Page) => tid(page, 'palette')

async function openPalette(page: Page) {
  await page.keyboard.press('Control+k')
  await expect(palette(page)).toBeVisible()
  await expect(tid(page, 'palette-input')).toBeFocused()
}

test('palette: finds an item by a few letters and opens it; runs a command; works offline', async ({
  app,
  remote
}) => {
  let page = app.page
  await signInToServer(page, remote)
  await page.evaluate(async () => {
    const api = window.agentDesk
    const llm = { provider: 'openai', model: 'gpt-4o' }
    await api.agents.create({ name: 'Night watch', type: 'REACT', llm })
    await api.agents.create({ name: 'Support bot', type: 'CHATVENDOR', llm })
    await api.tools.create({ name: 'Web search', type: 'SEARCH', description: 'Finds pages on the web' })
    await api.documents.create({ name: 'Runbook', type: 'TXT', url: 'https://example.com/r.txt' })
  })
  await page.reload()
  await expect(tid(page, 'agent-row')).toHaveCount(2)
  await settled(page)

  // Scattered letters of "Support bot", Enter opens it in its view.
  await openPalette(page)
  await tid(page, 'palette-input').fill('supbot')
  const first = tid(page, 'palette-result').first()
  await expect(first).toContainText('Support bot')
  await expect(first).toHaveAttribute('data-kind', 'agents')
  await expect(tid(page, 'palette-input')).toHaveAttribute('aria-activedescendant', 'palette-option-0')
  await page.keyboard.press('Enter')
  await expect(palette(page)).toBeHidden()
  await expect(page).toHaveURL(/#\/agents\/[^/]+$/)
  await expect(tid(page, 'agent-row').filter({ hasText: 'Support bot' })).toHaveAttribute(
    'aria-selected',
    'true'
  )

  // A description counts too; ↓ moves the active result; a command runs.
  await openPalette(page)
  await tid(page, 'palette-input').fill('go to tools')
  await expect(tid(page, 'palette-result').first()).toHaveAttribute('data-kind', 'command')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/#\/tools/)

  // Esc closes and gives the focus back.
  await tid(page, 'list-filter').focus()
  await openPalette(page)
  await page.keyboard.press('Escape')
  await expect(palette(page)).toBeHidden()
  await expect(tid(page, 'list-filter')).toBeFocused()

  // Offline: the names come from the cache.
  await remote.stop()
  page = await app.restart()
  await expect(tid(page, 'agent-row').first()).toBeVisible()
  await openPalette(page)
  await tid(page, 'palette-input').fill('runbk')
  await expect(tid(page, 'palette-result').first()).toContainText('Runbook')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/#\/documents\/[^/]+$/)
})

test('shortcuts: cheat-sheet, views by number, / focuses the filter, ↑/↓ and Delete in a list', async ({
  app
}) => {
  const { page } = app
  await openLocalWorkspace(page)
  await page.evaluate(async () => {
    for (const name of ['Alpha', 'Beta', 'Gamma'])
      await window.agentDesk.tools.create({ name, type: 'SEARCH', description: `${name} tool` })
  })
  await settled(page)

  await page.keyboard.press('Control+/')
  const sheet = tid(page, 'shortcuts-dialog')
  await expect(sheet).toBeVisible()
  await expect(tid(page, 'shortcut-palette')).toHaveText('Command palette')
  await expect(sheet).toContainText('Ctrl+K')
  await tid(page, 'shortcuts-close').click()
  await expect(sheet).toBeHidden()

  await page.keyboard.press('Control+3')
  await expect(page).toHaveURL(/#\/tools/)
  await expect(tid(page, 'tool-row')).toHaveCount(3)

  await page.keyboard.press('/')
  await expect(tid(page, 'list-filter')).toBeFocused()
  await tid(page, 'list-filter').blur()

  // ↓ opens the first row, ↓ again the second; the list points at it for screen readers.
  const list = tid(page, 'tool-list')
  await page.keyboard.press('ArrowDown')
  await expect(page).toHaveURL(/#\/tools\/[^/]+$/)
  await page.keyboard.press('ArrowDown')
  const second = tid(page, 'tool-row').nth(1)
  await expect(second).toHaveAttribute('aria-selected', 'true')
  const rowId = await second.getAttribute('id')
  await expect(list).toHaveAttribute('aria-activedescendant', rowId ?? 'missing')
  const url = page.url()
  await page.keyboard.press('ArrowUp')
  await expect(tid(page, 'tool-row').first()).toHaveAttribute('aria-selected', 'true')
  expect(page.url()).not.toBe(url)

  // Delete asks first; cancelling keeps the tool.
  await page.locator('body').click({ position: { x: 5, y: 5 } })
  await page.keyboard.press('Delete')
  const confirm = page.getByRole('dialog').filter({ hasText: /delete/i })
  await expect(confirm).toBeVisible()
  await confirm.getByRole('button', { name: /cancel/i }).click()
  await expect(confirm).toBeHidden()
  await expect(tid(page, 'tool-row')).toHaveCount(3)

  // Esc closes the open item; Ctrl+N opens the create form of the view you are in.
  await page.keyboard.press('Escape')
  await expect(page).toHaveURL(/#\/tools$/)
  await page.keyboard.press('Control+n')
  await expect(page.locator('[data-detail-pane] form, [data-detail-pane] .n-form').first()).toBeVisible()
})

test('focus returns where it was after every dialog: cheat-sheet, palette, delete confirmation', async ({
  app
}) => {
  const { page } = app
  await openLocalWorkspace(page)
  const id = await page.evaluate(
    async () =>
      (await window.agentDesk.tools.create({ name: 'Focus tool', type: 'SEARCH', description: 'x' })).data.id
  )
  const base = page.url().replace(/#.*$/, '')
  await page.goto(`${base}#/tools`)
  await settled(page)
  const filter = tid(page, 'list-filter')

  await page.keyboard.press('/')
  await expect(filter).toBeFocused()
  await page.keyboard.press('Control+/')
  await expect(tid(page, 'shortcuts-dialog')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(tid(page, 'shortcuts-dialog')).toBeHidden()
  await expect(filter).toBeFocused()

  await openPalette(page)
  await page.keyboard.press('Escape')
  await expect(palette(page)).toBeHidden()
  await expect(filter).toBeFocused()

  await page.goto(`${base}#/tools/${id}`)
  await settled(page)
  const del = tid(page, 'tool-detail').getByTestId('delete-button')
  await del.focus()
  await page.keyboard.press('Enter')
  const confirm = page.getByRole('dialog').filter({ hasText: /delete/i })
  await expect(confirm).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(confirm).toBeHidden()
  await expect(del).toBeFocused()
})
