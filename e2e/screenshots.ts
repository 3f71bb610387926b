/**
 * Regenerates the README screenshots: `node --import tsx e2e/screenshots.ts` (after `npm run build`).
 * Drives the built renderer through the web harness with a small Local workspace.
 */
import { chromium } from '@playwright/test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SECRET_HEADER, startHarness } from './harness/server'

const out = join(process.cwd(), 'resources/screenshots')
const userDataDir = await mkdtemp(join(tmpdir(), 'agent-desk-shots-'))
const harness = await startHarness({ userDataDir })
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--no-first-run'
  ]
})
try {
  const context = await browser.newContext({
    baseURL: harness.url,
    extraHTTPHeaders: { [SECRET_HEADER]: harness.secret },
    viewport: { width: 1280, height: 760 },
    locale: 'en-US',
    deviceScaleFactor: 1
  })
  const page = await context.newPage()
  /** Once nothing animates (a popover fading in, a drawer sliding in, a tick drawn; spinners aside). */
  const shoot = async (name: string) => {
    await page.waitForFunction(() =>
      document
        .getAnimations()
        .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity)
    )
    await page.screenshot({ path: join(out, `${name}.png`) })
  }
  await page.goto('/')
  await page.getByTestId('local-workspace-button').waitFor()
  await shoot('sign-in')
  await page.getByTestId('local-workspace-button').click()
  await page.getByTestId('nav-agents').waitFor()
  await page.evaluate(async () => {
    const d = window.agentDesk
    const support = (await d.tags.create({ name: 'support', color: '#1E90FF' })).data
    const ops = (await d.tags.create({ name: 'ops', color: '#0E8A16' })).data
    const beta = (await d.tags.create({ name: 'beta', color: '#D93F0B' })).data
    const docs = []
    for (const [name, type] of [
      ['Product handbook', 'PDF'],
      ['Pricing sheet', 'CSV'],
      ['Release notes', 'URL'],
      ['Onboarding video', 'VIDEO']
    ] as const) {
      docs.push(
        (await d.documents.create({ name, type, url: `https://example.com/${name.replace(/ /g, '-')}` })).data
      )
    }
    const tools = []
    for (const [name, type] of [
      ['Web search', 'SEARCH'],
      ['Calculator', 'MATHENGINE_ALPHA'],
      ['Ticket API', 'OPENAPI']
    ] as const) {
      tools.push((await d.tools.create({ name, type, description: `${name} for agents` })).data)
    }
    const prompt = (
      await d.prompts.create({
        name: 'Support answer',
        template: 'Answer {question} for {customer} politely.'
      })
    ).data
    const agents = [
      ['Helpdesk assistant', 'REACT', [support.id]],
      ['Release summariser', 'CHATVENDOR', [ops.id]],
      ['Pricing advisor', 'REACT', [support.id, beta.id]],
      ['On-call triage', 'REACT', [ops.id, beta.id]]
    ] as const
    for (const [name, type, tags] of agents) {
      const a = (
        await d.agents.create({
          name,
          type,
          llm: { provider: 'openai', model: 'gpt-4o-mini' },
          hasMemory: type === 'REACT',
          promptId: prompt.id,
          tags: [...tags]
        })
      ).data
      if (name === 'Helpdesk assistant') {
        await d.agentDocuments.create({ agentId: a.id, documentId: docs[0]!.id })
        await d.agentTools.create({ agentId: a.id, toolId: tools[0]!.id })
      }
    }
  })
  await page.reload()
  await page.getByTestId('agent-row').filter({ hasText: 'Helpdesk assistant' }).click()
  await page.getByTestId('linked-document').first().waitFor()
  await shoot('agents')
  await page.getByTestId('nav-tags').click()
  await page.getByTestId('tag-form').last().getByTestId('field-name').fill('urgent')
  await page.getByTestId('tag-form').last().getByTestId('tag-color-picker').click()
  await page.locator('.n-color-picker-panel').waitFor()
  await shoot('tags')
  await page.keyboard.press('Escape')
  // The command palette over everything (Ctrl/Cmd+K).
  await page.getByTestId('nav-agents').click()
  await page.getByTestId('agent-row').first().waitFor()
  await page.keyboard.press('Control+k')
  await page.getByTestId('palette-input').fill('help')
  await page.getByTestId('palette-result').first().waitFor()
  await shoot('palette')
  await page.keyboard.press('Escape')
  // Export… (File menu, the palette, or an agent's More): the whole workspace or some agents.
  await page.keyboard.press('Control+k')
  await page.getByTestId('palette-input').fill('export')
  await page.keyboard.press('Enter')
  await page.getByTestId('export-dialog').waitFor()
  await page.getByTestId('export-secrets').click()
  await page.getByTestId('export-secrets-warning').waitFor()
  await shoot('export')
  await page.getByTestId('export-close').click()
  // The smallest window (880×560): the link palette is a drawer over the agent.
  await page.setViewportSize({ width: 880, height: 560 })
  await page.getByTestId('agent-row').filter({ hasText: 'Helpdesk assistant' }).click()
  await page.getByTestId('palette-toggle').click()
  await page.getByTestId('link-palette').waitFor()
  await shoot('narrow')
  console.log(`screenshots written to ${out}`)
} finally {
  await browser.close()
  await harness.close()
  await rm(userDataDir, { recursive: true, force: true })
}
