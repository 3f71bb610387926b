/**
 * The application menu reaches the renderer: File › New … opens that page's create form, View ›
 * Theme switches the theme, About shows the versions and copies them. (Through the harness the
 * menu item's command is sent as the Electron glue sends it; in Electron the real item is clicked.)
 */
import { test, expect } from './support/fixtures'
import { openLocalWorkspace, tid } from './support/ui'

test('File › New Agent / New Document open the create form of their page', async ({ app }) => {
  const { page } = app
  await openLocalWorkspace(page)
  await expect(tid(page, 'agent-form')).toHaveCount(0)
  await app.chooseMenuItem('new-agent')
  await expect(tid(page, 'agent-form')).toBeVisible()

  // From another page: the app goes to Documents and opens its form there.
  await app.chooseMenuItem('new-document')
  await expect(page).toHaveURL(/#\/documents$/)
  await expect(tid(page, 'document-form')).toBeVisible()

  // New Tag: the tags page, its name field focused.
  await app.chooseMenuItem('new-tag')
  await expect(page).toHaveURL(/#\/tags$/)
  await expect(tid(page, 'new-tag-card').locator('input').first()).toBeFocused()
})

test('View › Theme switches between dark, light and the system theme, and is kept', async ({ app }) => {
  const { page } = app
  await openLocalWorkspace(page)
  const theme = () => page.evaluate(() => document.documentElement.dataset.theme)
  await app.chooseMenuItem('theme-dark')
  await expect.poll(theme).toBe('dark')
  // naive-ui's dark theme is applied: the header button's text turns light.
  const buttonColor = () => tid(page, 'signout-button').evaluate((el) => getComputedStyle(el).color)
  await expect.poll(buttonColor).toMatch(/^rgba?\(2[0-9]{2}, 2[0-9]{2}, 2[0-9]{2}/)
  await page.reload()
  await expect(tid(page, 'nav-agents')).toBeVisible()
  await expect.poll(theme).toBe('dark')
  await app.chooseMenuItem('theme-light')
  await expect.poll(theme).toBe('light')
  await expect.poll(buttonColor).not.toMatch(/^rgba?\(2[0-9]{2}, 2[0-9]{2}, 2[0-9]{2}/)
  await app.chooseMenuItem('theme-system')
  await expect.poll(() => page.evaluate(() => localStorage.getItem('agent-desk:theme'))).toBeNull()
})

test('About shows the versions and the data folder, and copies them', async ({ app }) => {
  const { page } = app
  await openLocalWorkspace(page)
  await app.chooseMenuItem('about')
  const dialog = tid(page, 'about-dialog')
  await expect(dialog).toBeVisible()
  await expect(tid(page, 'about-data')).toHaveText(app.userDataDir)
  await expect(tid(page, 'about-node')).toHaveText(/^\d+\.\d+\.\d+$/)
  if (app.mode === 'harness') {
    await expect(tid(page, 'about-version')).toHaveText('0.0.0-e2e')
    await expect(tid(page, 'about-electron')).toHaveText('—')
    await expect(tid(page, 'about-chromium')).toHaveText('—')
  } else {
    await expect(tid(page, 'about-electron')).toHaveText(/^\d+\.\d+\.\d+/)
  }
  await tid(page, 'about-copy').click()
  await expect.poll(() => app.clipboardText()).toContain(`Data folder: ${app.userDataDir}`)
  expect(await app.clipboardText()).toMatch(/^Agent Desk \S+\nElectron: /)
  await tid(page, 'about-close').click()
  await expect(dialog).toBeHidden()

  // Also from the shell.
  await tid(page, 'nav-about').click()
  await expect(tid(page, 'about-dialog')).toBeVisible()
})
