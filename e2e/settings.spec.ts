import { test, expect } from './support/fixtures'
import { choose, openLocalWorkspace, tid } from './support/ui'

const cardBackground = (page: import('@playwright/test').Page) =>
  page
    .locator('.settings-view .n-card')
    .first()
    .evaluate((el) => getComputedStyle(el).backgroundColor)

test('settings: the update switch and the theme persist across a reload and a restart', async ({ app }) => {
  let page = app.page
  await openLocalWorkspace(page)
  await tid(page, 'nav-settings').click()
  await expect(page).toHaveURL(/#\/settings/)

  const updates = tid(page, 'settings-updates')
  await expect(updates).toHaveAttribute('aria-checked', 'true')
  await expect(tid(page, 'settings-updates-managed')).toHaveCount(0)
  // This build has no update feed: "Check for updates" says so.
  await tid(page, 'settings-check-updates').click()
  await expect(tid(page, 'settings-update-status')).toHaveAttribute(
    'data-state',
    /unconfigured|current|error/
  )

  const lightBackground = await cardBackground(page)
  await updates.click()
  await expect(updates).toHaveAttribute('aria-checked', 'false')
  await expect(tid(page, 'settings-check-updates')).toBeDisabled()
  await tid(page, 'settings-theme-dark').click()
  await expect.poll(() => cardBackground(page)).not.toBe(lightBackground)

  await page.reload()
  await expect(tid(page, 'settings-updates')).toHaveAttribute('aria-checked', 'false')
  await expect(tid(page, 'settings-theme-dark').locator('input')).toBeChecked()
  await expect.poll(() => cardBackground(page)).not.toBe(lightBackground)

  page = await app.restart()
  await page.goto(page.url().replace(/#.*$/, '#/settings'))
  await expect(tid(page, 'settings-updates')).toHaveAttribute('aria-checked', 'false')
  await tid(page, 'settings-updates').click()
  await expect(tid(page, 'settings-updates')).toHaveAttribute('aria-checked', 'true')
  await tid(page, 'settings-theme-system').click()
  await expect.poll(() => cardBackground(page)).toBe(lightBackground)
})

test('settings: an administrator’s switch wins and the page says who decides', async ({ app }) => {
  await openLocalWorkspace(app.page)
  process.env.AGENT_DESK_UPDATES = 'off'
  try {
    // Read when the app starts (Electron) or at each look (the harness): a restart covers both.
    const page = await app.restart()
    await page.goto(page.url().replace(/#.*$/, '#/settings'))
    const updates = tid(page, 'settings-updates')
    await expect(updates).toHaveAttribute('aria-checked', 'false')
    await expect(updates).toHaveClass(/n-switch--disabled/)
    await expect(tid(page, 'settings-updates-managed')).toContainText('Managed by your administrator')
    await expect(tid(page, 'settings-updates-managed')).toContainText('AGENT_DESK_UPDATES=off')
    await expect(tid(page, 'settings-check-updates')).toBeDisabled()
  } finally {
    delete process.env.AGENT_DESK_UPDATES
  }
})

test('settings: the language switches at run time and stays German across a restart', async ({ app }) => {
  let page = app.page
  await openLocalWorkspace(page)
  await tid(page, 'nav-settings').click()
  const heading = page.locator('.settings-view h2')
  await expect(heading).toHaveText('Settings')
  // Each language is offered in its own words.
  await expect(tid(page, 'settings-language-de')).toHaveText('Deutsch')
  await tid(page, 'settings-language-de').click()
  await expect(heading).toHaveText('Einstellungen')
  await expect(page.locator('html')).toHaveAttribute('lang', 'de')
  await expect(tid(page, 'settings-language-system')).toContainText('Wie das System')
  // The whole shell follows: the sidebar, the header, the enum labels, the command palette.
  await expect(tid(page, 'nav-agents')).toHaveText('Agenten')
  await expect(tid(page, 'nav-settings')).toHaveText('Einstellungen')
  await expect(tid(page, 'signout-button')).toHaveText('Abmelden')
  await page.keyboard.press('Control+k')
  await expect(tid(page, 'palette-input')).toHaveAttribute('placeholder', 'Namen oder Befehl eingeben…')
  await tid(page, 'palette-input').fill('gehe zu werkz')
  await expect(tid(page, 'palette-result').first()).toHaveText(/Gehe zu Werkzeuge/)
  await page.keyboard.press('Escape')

  page = await app.restart()
  await page.goto(page.url().replace(/#.*$/, '#/settings'))
  await expect(page.locator('.settings-view h2')).toHaveText('Einstellungen')
  await expect(tid(page, 'settings-language-de').locator('input')).toBeChecked()
  await tid(page, 'settings-language-en').click()
  await expect(page.locator('.settings-view h2')).toHaveText('Settings')
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
})

test('settings: in German the list pages and the sign-in screen speak German too', async ({ app }) => {
  const { page } = app
  await openLocalWorkspace(page)
  await tid(page, 'nav-settings').click()
  await tid(page, 'settings-language-de').click()
  await expect(page.locator('.settings-view h2')).toHaveText('Einstellungen')
  await tid(page, 'nav-agents').click()
  await expect(tid(page, 'new-agent-button')).toHaveText('Neuer Agent')
  await expect(tid(page, 'palette-toggle')).toHaveText(/Palette/)
  await expect(tid(page, 'list-filter')).toHaveAttribute('placeholder', 'Agenten nach Name suchen')
  await tid(page, 'nav-tags').click()
  await expect(tid(page, 'new-tag-card')).toContainText('Neuer Tag')
  const views = [
    { nav: 'nav-documents', title: 'Dokumente', button: 'Neues Dokument', search: 'Nach Name suchen…' },
    { nav: 'nav-tools', title: 'Werkzeuge', button: 'Neues Werkzeug', search: 'Nach Name suchen…' },
    { nav: 'nav-prompts', title: 'Prompts', button: 'Neuer Prompt', search: 'Nach Name suchen…' },
    { nav: 'nav-api-tokens', title: 'API-Tokens', button: 'Neues Token', search: 'Nach Beschreibung suchen…' }
  ]
  for (const v of views) {
    await tid(page, v.nav).click()
    await expect(page.locator('.rll h2').first()).toContainText(v.title)
    await expect(tid(page, 'new-button')).toHaveText(v.button)
    await expect(tid(page, 'list-filter')).toHaveAttribute('placeholder', v.search)
    await expect(tid(page, 'sort')).toContainText(/zuerst|Name/)
    // No English is left on the page's own controls.
    const words = await page
      .locator('.rll button, .rll h2, .n-empty__description, .detail-placeholder')
      .allInnerTexts()
    expect(words.join(' ')).not.toMatch(/\b(New|Select|Search|Newest|Oldest|Back to|yet|Try again)\b/)
  }
  await tid(page, 'nav-tools').click()
  await tid(page, 'new-button').click()
  const form = tid(page, 'tool-form')
  await expect(form).toContainText('Werkzeug anlegen')
  await form.getByTestId('field-name').fill('Suche')
  await choose(page, 'field-type', /^Suche$/)
  await form.getByTestId('field-metadata').fill('[1]')
  await expect(form.getByTestId('json-error')).toContainText('Muss ein JSON-Objekt sein ({ … })')
  await form.getByTestId('field-metadata').fill('{}')
  await form.getByTestId('save-button').click()
  await expect(page.locator('.n-message', { hasText: 'Werkzeug angelegt' })).toBeVisible()
  const row = tid(page, 'tool-row').filter({ hasText: 'Suche' })
  await expect(row).toHaveCount(1)
  // A delete waits with Undo, in German too.
  await tid(page, 'tool-detail').getByTestId('delete-button').click()
  await tid(page, 'confirm-delete').click()
  await expect(tid(page, 'undo-button')).toHaveText('Rückgängig')
  await expect(row).toHaveCount(0)
  await tid(page, 'undo-button').click()
  await expect(row).toHaveCount(1)
  await tid(page, 'nav-api-tokens').click()
  await tid(page, 'new-button').click()
  await expect(page.locator('.detail-pane__title')).toHaveText('Neues API-Token')
  // Signed out, the sign-in screen speaks German as well.
  await tid(page, 'signout-button').click()
  await tid(page, 'signout-confirm').click()
  await expect(tid(page, 'local-workspace-button')).toHaveText('Lokalen Arbeitsbereich öffnen')
  await expect(tid(page, 'signin-form')).toContainText('E-Mail und Passwort')
  await expect(tid(page, 'signin-submit')).toHaveText('Anmelden')
})

test('settings: offline data shows its size and Clear empties it after asking', async ({ app }) => {
  const { page } = app
  await openLocalWorkspace(page)
  await page.evaluate(async () => {
    for (let i = 0; i < 50; i++)
      await window.agentDesk.tools.create({ name: `Tool ${i}`, type: 'SEARCH', description: 'x'.repeat(400) })
    await window.agentDesk.tools.list()
  })
  await tid(page, 'nav-settings').click()
  const size = tid(page, 'offline-size')
  await expect(size).toContainText(/\d+ items/)
  const before = Number(await size.getAttribute('data-bytes'))
  expect(before).toBeGreaterThan(0)
  await tid(page, 'offline-clear').click()
  await page.getByRole('dialog').getByRole('button', { name: 'Clear' }).click()
  await expect(size).toContainText('(0 items)')
  await expect.poll(async () => Number(await size.getAttribute('data-bytes'))).toBeLessThan(before)
})
