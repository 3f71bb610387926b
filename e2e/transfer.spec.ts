/**
 * Export, import and copy to another profile, as a user does them: Export… from the command
 * palette saves a file; Import… in a server profile previews it and rebuilds the agent with its
 * tag, prompt and links; Copy to profile… from an agent's pane sends it from the Local workspace
 * to a server profile; a file with a bad item says why it is left out and imports the rest.
 */
import { readFile } from 'node:fs/promises'
import type { Page } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'
import { test, expect } from './support/fixtures'
import { openLocalWorkspace, settled, signInToServer, tid } from './support/ui'

async function seed(page: Page) {
  return page.evaluate(async () => {
    const d = window.agentDesk
    const tag = (await d.tags.create({ name: 'support', color: '#1E90FF' })).data
    const prompt = (await d.prompts.create({ name: 'Greeter', template: 'Hello {name}' })).data
    const doc = (
      await d.documents.create({
        name: 'Handbook',
        type: 'PDF',
        url: 'https://example.com/handbook.pdf',
        authorization: { header: 'X-Key', value: 'doc-secret-98765' }
      })
    ).data
    const tool = (await d.tools.create({ name: 'Web search', type: 'SEARCH', description: 'search' })).data
    const agent = (
      await d.agents.create({
        name: 'Helpdesk',
        type: 'REACT',
        llm: { provider: 'openai', model: 'gpt-4o' },
        promptId: prompt.id,
        tags: [tag.id]
      })
    ).data
    await d.agentDocuments.create({ agentId: agent.id, documentId: doc.id })
    await d.agentTools.create({ agentId: agent.id, toolId: tool.id })
    return { agent: agent.id }
  })
}

/** No serious or critical accessibility finding in the open dialog. */
async function expectAccessible(page: Page, testid: string) {
  const axe = await new AxeBuilder({ page }).include(`[data-testid="${testid}"]`).analyze()
  const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(bad.map((v) => `${v.id}: ${v.help}`)).toEqual([])
}

async function runCommand(page: Page, words: string) {
  await page.keyboard.press('Control+k')
  await tid(page, 'palette-input').fill(words)
  await expect(tid(page, 'palette-result').first()).toContainText(new RegExp(words, 'i'))
  await page.keyboard.press('Enter')
}

/** The agent's pane shows its tag, and its linked document and tool. */
async function expectRebuilt(page: Page) {
  await tid(page, 'nav-agents').click()
  await tid(page, 'agent-row').filter({ hasText: 'Helpdesk' }).click()
  const detail = tid(page, 'agent-detail')
  await expect(detail.getByTestId('agent-name')).toHaveText('Helpdesk')
  await expect(detail).toContainText('support')
  await expect(detail.getByTestId('linked-document').filter({ hasText: 'Handbook' })).toBeVisible()
  await expect(detail.getByTestId('linked-tool').filter({ hasText: 'Web search' })).toBeVisible()
}

test('export the workspace, import it into a server profile: previewed, then rebuilt with its links', async ({
  app,
  remote
}) => {
  const { page } = app
  await openLocalWorkspace(page)
  await seed(page)
  await settled(page)

  await runCommand(page, 'export')
  const dialog = tid(page, 'export-dialog')
  await expect(dialog).toBeVisible()
  await expectAccessible(page, 'export-dialog')
  const [download] = await Promise.all([page.waitForEvent('download'), tid(page, 'export-run').click()])
  expect(download.suggestedFilename()).toMatch(/^agent-desk-local-workspace-\d{4}-\d{2}-\d{2}\.json$/)
  const path = await download.path()
  const text = await readFile(path, 'utf8')
  expect(JSON.parse(text)).toMatchObject({ format: 'agent-desk.workspace', agents: [{ name: 'Helpdesk' }] })
  expect(text).not.toContain('doc-secret-98765')
  await expect(tid(page, 'export-done')).toContainText('Agents 1')
  await tid(page, 'export-close').click()
  await expect(dialog).toBeHidden()

  // Another profile: a team server.
  await page.goto(page.url().replace(/#.*$/, '#/signin'))
  await signInToServer(page, remote)
  await settled(page)
  await runCommand(page, 'import')
  await expect(tid(page, 'import-dialog')).toBeVisible()
  await tid(page, 'import-file').setInputFiles(path)
  await expect(tid(page, 'import-counts')).toContainText('Agents 1')
  await expect(tid(page, 'import-source')).toContainText('Local workspace')
  await expectAccessible(page, 'import-dialog')
  const willCreate = tid(page, 'transfer-create')
  for (const kind of ['tag', 'prompt', 'document', 'tool', 'agent', 'agentDocument', 'agentTool']) {
    await expect(willCreate.locator(`[data-kind="${kind}"]`)).toHaveCount(1)
  }
  await tid(page, 'import-run').click()
  await expect(tid(page, 'import-done')).toContainText('Team server')
  await expect(tid(page, 'transfer-failure')).toHaveCount(0)
  await tid(page, 'import-close').click()
  await expectRebuilt(page)
})

test('copy an agent from the Local workspace to a server profile, signing in for the copy only', async ({
  app,
  remote
}) => {
  const { page } = app
  await openLocalWorkspace(page)
  const { agent } = await seed(page)
  await page.evaluate(
    async (url) => window.agentDesk.profiles.save({ name: 'Team server', baseUrl: url }),
    remote.url
  )
  await page.goto(page.url().replace(/#.*$/, `#/agents/${agent}`))
  await settled(page)
  await tid(page, 'agent-more').click()
  await page.getByText('Copy to profile…').click()
  const dialog = tid(page, 'copy-dialog')
  await expect(dialog).toBeVisible()
  await expect(tid(page, 'copy-profile')).toContainText('Team server')
  await expectAccessible(page, 'copy-dialog')
  // Without the password: refused beside the fields, nothing lost.
  await tid(page, 'copy-email').locator('input').fill(remote.email)
  await tid(page, 'copy-run').click()
  await expect(tid(page, 'copy-credential-error')).toContainText(
    'email and password of your account on Team server'
  )
  await expect(tid(page, 'copy-email').locator('input')).toHaveValue(remote.email)
  await tid(page, 'copy-password').locator('input').fill(remote.password)
  await tid(page, 'copy-run').click()
  await expect(tid(page, 'copy-done')).toContainText('Team server')
  await expect(tid(page, 'transfer-create').locator('[data-kind="agent"]')).toHaveCount(1)
  await tid(page, 'copy-close').click()

  // Still in the Local workspace; the server has the agent with everything it uses.
  await expect(tid(page, 'agent-detail').getByTestId('agent-name')).toHaveText('Helpdesk')
  await page.goto(page.url().replace(/#.*$/, '#/signin'))
  await tid(page, 'signin-email').fill(remote.email)
  await tid(page, 'signin-password').fill(remote.password)
  await tid(page, 'signin-submit').click()
  await expect(tid(page, 'nav-agents')).toBeVisible()
  await expectRebuilt(page)
})

test('an import file with a bad item: the reason is shown, the rest is imported', async ({ app }) => {
  const { page } = app
  await openLocalWorkspace(page)
  await settled(page)
  const file = {
    format: 'agent-desk.workspace',
    version: 1,
    exportedAt: '2026-11-24T10:00:00.000Z',
    source: { profile: 'Elsewhere' },
    secrets: false,
    documents: [
      { ref: 'd1', name: 'Broken link', type: 'PDF', url: 'ftp://example.com/x', metadata: {} },
      { ref: 'd2', name: 'Good doc', type: 'PDF', url: 'https://example.com/good.pdf', metadata: {} }
    ]
  }
  await runCommand(page, 'import')
  await tid(page, 'import-file').setInputFiles({
    name: 'mixed.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(file))
  })
  const refused = tid(page, 'transfer-refuse')
  await expect(refused).toContainText('Broken link')
  await expect(refused).toContainText('url:')
  await tid(page, 'import-run').click()
  await expect(tid(page, 'import-done')).toBeVisible()
  await tid(page, 'import-close').click()
  await tid(page, 'nav-documents').click()
  await expect(tid(page, 'document-row').filter({ hasText: 'Good doc' })).toBeVisible()
  await expect(tid(page, 'document-row').filter({ hasText: 'Broken link' })).toHaveCount(0)

  // Not an export file at all: said in words, nothing imported.
  await runCommand(page, 'import')
  await tid(page, 'import-file').setInputFiles({
    name: 'notes.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"hello": "world"}')
  })
  await expect(tid(page, 'import-problem')).toContainText('not an Agent Desk export file')
  await expect(tid(page, 'import-run')).toHaveCount(0)
})
