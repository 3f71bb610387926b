/**
 * Fits any window: every view at the minimum window size (880×560) and at 1280×800, with items
 * present and one open, has no sideways scrolling, no clipped or overlapping panes, and every pane
 * is big enough to use (below the breakpoint the agents view's link palette is a drawer, opened
 * with its button). axe-core finds no serious or critical accessibility problem on any of them.
 * A box whose size is contained (it does not grow with its content) holds all of its content; the
 * list pages' filter and rows are such boxes, in a place where Chromium lays them out alone.
 */
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { test, expect } from './support/fixtures'
import { openLocalWorkspace, settled, tid } from './support/ui'

const SIZES = [
  { width: 880, height: 560 },
  { width: 1280, height: 800 }
]

interface Seeded {
  agent: string
  document: string
  tool: string
  prompt: string
  token: string
  link: string
}

async function seed(page: Page): Promise<Seeded> {
  return page.evaluate(async () => {
    const api = window.agentDesk
    const tag = (await api.tags.create({ name: 'operations', color: '#1E90FF' })).data
    const long = 'A rather long name that would overflow a narrow pane if nothing wrapped or cut it'
    const document = (
      await api.documents.create({
        name: `Handbook — ${long}`,
        type: 'PDF',
        url: 'https://example.com/h.pdf'
      })
    ).data
    const tool = (await api.tools.create({ name: `Web search — ${long}`, type: 'SEARCH', description: long }))
      .data
    const prompt = (
      await api.prompts.create({ name: 'Greeter', template: 'Hello {name}, welcome to {place}!' })
    ).data
    const agent = (
      await api.agents.create({
        name: `Support bot — ${long}`,
        type: 'REACT',
        llm: { provider: 'openai', model: 'gpt-4o' },
        tags: [tag.id],
        promptId: prompt.id
      })
    ).data
    const link = (await api.agentDocuments.create({ agentId: agent.id, documentId: document.id })).data
    await api.agentTools.create({ agentId: agent.id, toolId: tool.id })
    const token = (await api.apiTokens.create({ description: `CI — ${long}` })).data
    return {
      agent: agent.id,
      document: document.id,
      tool: tool.id,
      prompt: prompt.id,
      token: token.id,
      link: link.id
    }
  })
}

/** What the page measures: overflow of the document and each pane, pane boxes. */
async function measure(page: Page) {
  return page.evaluate(() => {
    const doc = document.scrollingElement ?? document.documentElement
    // The innermost panes (a detail section holding an agent pane and the link palette counts as two).
    const panes = [...document.querySelectorAll<HTMLElement>('[data-pane]')]
      .filter((el) => el.getClientRects().length > 0 && !el.querySelector('[data-pane]'))
      .map((el) => {
        const r = el.getBoundingClientRect()
        return {
          name: el.dataset.pane ?? '?',
          x: r.x,
          y: r.y,
          width: r.width,
          height: r.height,
          overflowX: el.scrollWidth - el.clientWidth,
          // A drawer lies over the page on purpose (narrow windows): it is checked, not for overlap.
          overlay: !!el.closest('.n-drawer')
        }
      })
    // Boxes sized without their content (CSS size containment): what sticks out of them (not
    // counting what a scroller inside them scrolls).
    const scrolls = (el: Element) => /auto|scroll/.test(getComputedStyle(el).overflowY)
    const sizeContained = (el: Element) => /\b(size|strict)\b/.test(getComputedStyle(el).contain)
    const inside = (el: Element): Element[] =>
      [...el.children].flatMap((c) => [c, ...(scrolls(c) ? [] : inside(c))])
    const spills = [...document.querySelectorAll('*')]
      .filter((el) => sizeContained(el) && !scrolls(el))
      .flatMap((el) => {
        const box = el.getBoundingClientRect()
        return inside(el)
          .map((c) => ({ c, r: c.getBoundingClientRect() }))
          .filter(
            ({ r }) =>
              r.width > 0 &&
              r.height > 0 &&
              (r.top < box.top - 1 ||
                r.bottom > box.bottom + 1 ||
                r.left < box.left - 1 ||
                r.right > box.right + 1)
          )
          .map(
            ({ c, r }) =>
              `${c.className} (${r.height.toFixed(0)} px high) in ${el.className} (${box.height.toFixed(0)} px)`
          )
      })
    // A relayout boundary for Chromium: size and layout contained, and not a flex or grid item.
    const boundary = (el: Element | null | undefined) => {
      if (!el) return null
      const c = getComputedStyle(el).contain
      const parent = el.parentElement ? getComputedStyle(el.parentElement).display : ''
      return (c === 'strict' || (/\bsize\b/.test(c) && /\blayout\b/.test(c))) && !/flex|grid/.test(parent)
    }
    return {
      spills,
      filterBoundary: boundary(document.querySelector('[data-testid=list-filter]')?.closest('.n-input')),
      listBoundary: boundary(document.querySelector('[role=listbox].list-scroll')),
      docOverflowX: doc.scrollWidth - doc.clientWidth,
      viewport: innerWidth,
      height: innerHeight,
      panes
    }
  })
}

async function expectFits(page: Page, view: string, list = false) {
  await settled(page)
  const m = await measure(page)
  expect(m.docOverflowX, `${view}: the page scrolls sideways`).toBeLessThanOrEqual(1)
  expect(m.spills, `${view}: content outside a size-contained box`).toEqual([])
  if (list) {
    // Typing in the filter and the new rows it shows lay out the filter and the list alone.
    expect(m.filterBoundary, `${view}: the filter is a relayout boundary`).toBe(true)
    expect(m.listBoundary, `${view}: the list is a relayout boundary`).toBe(true)
  }
  expect(m.panes.length, `${view}: no pane found`).toBeGreaterThan(0)
  for (const p of m.panes) {
    expect(p.overflowX, `${view}: pane ${p.name} scrolls sideways`).toBeLessThanOrEqual(1)
    expect(p.width, `${view}: pane ${p.name} is too narrow`).toBeGreaterThanOrEqual(240)
    expect(p.height, `${view}: pane ${p.name} is too low`).toBeGreaterThanOrEqual(160)
    expect(p.x + p.width, `${view}: pane ${p.name} leaves the window`).toBeLessThanOrEqual(m.viewport + 1)
  }
  const laidOut = m.panes.filter((p) => !p.overlay)
  for (const a of laidOut)
    for (const b of laidOut) {
      if (a === b) continue
      const overlap =
        Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 1 &&
        Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 1
      expect(overlap, `${view}: panes ${a.name} and ${b.name} overlap`).toBe(false)
    }
  const axe = await new AxeBuilder({ page }).analyze()
  const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    `${view}: accessibility`
  ).toEqual([])
}

for (const size of SIZES) {
  test(`layout at ${size.width}×${size.height}: every view fits and passes axe`, async ({ app }) => {
    const page = app.page
    await page.setViewportSize(size)
    // The sign-in view is a route of its own, loaded after the shell: measured once it is shown.
    await expect(page.getByTestId('signin-form')).toBeVisible()
    await expectFits(page, 'sign-in')
    await openLocalWorkspace(page)
    const s = await seed(page)
    const views: [string, string][] = [
      ['agents', `#/agents/${s.agent}`],
      ['documents', `#/documents/${s.document}`],
      ['tools', `#/tools/${s.tool}`],
      ['prompts', `#/prompts/${s.prompt}`],
      ['tags', '#/tags'],
      ['api tokens', `#/api-tokens/${s.token}`],
      ['link', `#/agent-documents/${s.link}`],
      ['outbox', '#/outbox'],
      ['settings', '#/settings']
    ]
    for (const [name, hash] of views) {
      await page.goto(page.url().replace(/#.*$/, hash))
      await expect(page.locator('[data-pane]').first()).toBeVisible()
      await expectFits(page, name, ['agents', 'documents', 'tools'].includes(name))
    }
    // The link palette: beside the agent when there is room, a drawer over it when there is not.
    await page.goto(page.url().replace(/#.*$/, `#/agents/${s.agent}`))
    const palette = tid(page, 'link-palette')
    // Shown by default when there is room (once the list is painted), asked for when there is not.
    const toggle = tid(page, 'palette-toggle')
    if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click()
    await expect(palette).toBeVisible()
    // A drawer slides in: its box is judged once it has arrived.
    await expect
      .poll(async () => {
        const box = await palette.boundingBox()
        return box ? box.x + box.width : Infinity
      })
      .toBeLessThanOrEqual(size.width + 1)
    expect((await palette.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(240)
    await expectFits(page, 'agents with the link palette')
    // The agent's actions keep one line beside its long name, however narrow the pane.
    const detail = tid(page, 'agent-detail')
    const tops = await Promise.all(
      ['edit-button', 'agent-more', 'delete-button'].map(
        async (id) => (await detail.getByTestId(id).boundingBox())?.y
      )
    )
    expect(
      tops.every((y) => y !== undefined && Math.abs(y - (tops[0] as number)) <= 2),
      `tops ${tops}`
    ).toBe(true)
  })
}
