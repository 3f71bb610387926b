/**
 * The first frame (src/renderer/src/firstFrame/shell.ts): on a start with agents in the cache, the
 * list is drawn before the app's code runs, in the app's order and place, and the app takes over
 * from it; a start with nothing to draw shows no frame.
 */
import type { Locator, Page } from '@playwright/test'
import { test, expect } from './support/fixtures'
import { openLocalWorkspace, settled, tid } from './support/ui'

const NAMES = ['zeta watch', 'Alpha 10', 'alpha 9', 'Beta', 'Ärger desk']

/** The Local workspace with NAMES as its agents, listed once (so they are cached) and quiet. */
async function agentsCached(page: Page): Promise<void> {
  await openLocalWorkspace(page)
  await page.evaluate(async (names) => {
    const api = window.agentDesk
    const red = await api.tags.create({ name: 'red', color: '#B60205' })
    const pale = await api.tags.create({ name: 'pale', color: '#C5DEF5' })
    for (const [i, name] of names.entries()) {
      await api.agents.create({
        name,
        type: 'REACT',
        llm: { provider: 'openai', model: 'gpt-4o' },
        tags: i % 2 ? [red.data.id, pale.data.id] : [pale.data.id]
      })
    }
  }, NAMES)
  await page.reload()
  await expect(tid(page, 'agent-row')).toHaveCount(NAMES.length)
  await settled(page)
}

/** Each row's name, place and tag chips (text, background, text colour). */
function rowsOf(rows: Locator, name: string, chip: string) {
  return rows.evaluateAll(
    (els, [nameSel, chipSel]) =>
      els.map((r) => ({
        text: r.querySelector(nameSel)?.textContent,
        y: r.getBoundingClientRect().top,
        x: r.getBoundingClientRect().left,
        chips: [...r.querySelectorAll(chipSel)].map((c) => [
          c.textContent?.trim(),
          getComputedStyle(c).backgroundColor,
          getComputedStyle(c).color
        ])
      })),
    [name, chip] as const
  )
}

/** The marks of the page's start: the first frame drawn (with its rows) and the app's code run. */
async function startMarks(page: Page): Promise<{ frame: number | null; rows: number | null; app: number }> {
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByName('agent-desk:app-code').length))
    .toBe(1)
  return page.evaluate(() => {
    const frame = performance.getEntriesByName('agent-desk:first-frame')[0] as PerformanceMark | undefined
    return {
      frame: frame?.startTime ?? null,
      rows: (frame?.detail as { rows?: number } | undefined)?.rows ?? null,
      app: performance.getEntriesByName('agent-desk:app-code')[0]?.startTime ?? NaN
    }
  })
}

test('a start draws the cached agents before the app runs, and the app takes over', async ({ app }) => {
  let page = app.page
  await agentsCached(page)

  page = await app.restart()
  await expect(tid(page, 'agent-row')).toHaveCount(NAMES.length)
  const marks = await startMarks(page)
  expect(marks.rows).toBe(NAMES.length)
  expect(marks.frame).not.toBeNull()
  expect(marks.app).toBeGreaterThan(marks.frame as number)
  // Handed over: the frame is gone and the app's list works.
  await expect(page.locator('#first-frame')).toHaveCount(0)
  await tid(page, 'agent-row').filter({ hasText: 'Beta' }).click()
  await expect(page).toHaveURL(/#\/agents\/.+/)
  // The app remembered where its list stands, for the next first frame.
  const layout = await page.evaluate(() =>
    JSON.parse(localStorage.getItem('agent-desk:first-frame') ?? 'null')
  )
  expect(layout).toMatchObject({ v: 1, nav: expect.any(Number), rows: { pitch: 54 } })

  // Another first view, or no session (the cache kept): nothing to draw, no frame.
  await tid(page, 'nav-documents').click()
  await expect(page).toHaveURL(/#\/documents/)
  await page.reload()
  await expect(tid(page, 'nav-documents')).toBeVisible()
  expect((await startMarks(page)).frame).toBeNull()
  await tid(page, 'signout-button').click()
  await tid(page, 'signout-confirm').click()
  await expect(tid(page, 'local-workspace-button')).toBeVisible()
  page = await app.restart()
  await expect(tid(page, 'local-workspace-button')).toBeVisible()
  expect((await startMarks(page)).frame).toBeNull()
  await expect(page.locator('#first-frame')).toHaveCount(0)
})

// @harness: it holds the app's code back with a route of the harness's page (see playwright.config.ts).
test('the first frame shows the app list’s first rows, in its order and place @harness', async ({ app }) => {
  const page = app.page
  await agentsCached(page)
  await expect.poll(() => page.evaluate(() => localStorage.getItem('agent-desk:first-frame'))).not.toBeNull()

  // Another window of the same profile, with the app's code held back: only the first frame runs.
  const held = await page.context().newPage()
  let release = () => {}
  const released = new Promise<void>((r) => (release = r))
  await held.route(/\/assets\/index-[^/]*\.js$/, async (route) => {
    await released
    await route.continue()
  })
  await held.goto('/#/agents', { waitUntil: 'commit' })
  const frameRows = held.locator('#first-frame [data-first-frame-row]')
  await expect(frameRows).toHaveCount(NAMES.length)
  const frame = held.locator('#first-frame')
  await expect(frame).toHaveAttribute('aria-hidden', 'true')
  expect(await frame.evaluate((e) => getComputedStyle(e).pointerEvents)).toBe('none')
  const drawn = await rowsOf(frameRows, '.ff-name', '.ff-chip')
  expect(await held.locator('#app [data-testid=agent-row]').count()).toBe(0)

  release()
  await expect(frame).toHaveCount(0)
  const appRows = held.locator('#app [data-testid=agent-row]')
  await expect(appRows).toHaveCount(NAMES.length)
  const shown = await rowsOf(appRows, '.agent-row__name', '[data-testid=tag-chip]')
  // The same agents in the same order ("Name A–Z": case and accents aside, numbers by value), at
  // the same places, with the same chips.
  expect(drawn.map((r) => r.text)).toEqual(['alpha 9', 'Alpha 10', 'Ärger desk', 'Beta', 'zeta watch'])
  expect(shown.map((r) => r.text)).toEqual(drawn.map((r) => r.text))
  for (const [i, row] of drawn.entries()) {
    expect(Math.abs(row.y - (shown[i]?.y ?? NaN))).toBeLessThan(1)
    expect(row.x).toBeCloseTo(shown[i]?.x ?? NaN, 0)
    expect(row.chips).toEqual(shown[i]?.chips)
  }
  await held.close()
})
