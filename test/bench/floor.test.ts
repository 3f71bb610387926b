/**
 * The renderer bench's floor page does what the app's lists do, no less: its virtual list keys
 * each row by the item's id, so a row that stays in the filtered list keeps its element, and it
 * shows the rows in the app's name order.
 */
import { chromium, type Browser } from '@playwright/test'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/support/chromium'
import { startFloorPage, type FloorPage } from './floorPage'

let floor: FloorPage
let browser: Browser
beforeAll(async () => {
  floor = await startFloorPage()
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
})
afterAll(async () => {
  await browser?.close()
  await floor?.close()
})

it('keys its rows by item id: filtering keeps the element of a row that stays', async () => {
  const items = Array.from({ length: 200 }, (_, n) => ({ id: `i-${n}`, name: `item ${n}` }))
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  await page.goto(floor.page('keys', { mode: 'list', resource: 'agents', testid: 'agent', items }))
  const row = page.locator('[data-testid=agent-row]').filter({ hasText: /^item 1$/ })
  await row.waitFor()
  const before = await row.elementHandle()
  await page.locator('[data-testid=list-filter] input').fill('1')
  const shown = items.filter((i) => i.name.includes('1')).length
  await expect.poll(() => page.getByTestId('list-count').textContent()).toBe(String(shown))
  // Unkeyed rows are patched in place: the element would now show "item 10".
  expect(await before?.evaluate((el) => [el.isConnected, el.textContent?.trim()])).toEqual([true, 'item 1'])
  await page.close()
})

it('shows the rows in the app’s name order, whatever order the items came in', async () => {
  // As a server answers: newest first.
  const items = Array.from({ length: 30 }, (_, n) => ({ id: `i-${n}`, name: `Item ${n}` })).reverse()
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  await page.goto(floor.page('order', { mode: 'list', resource: 'agents', testid: 'agent', items }))
  const rows = page.locator('[data-testid=agent-row] > span:first-child')
  await rows.first().waitFor()
  expect((await rows.allTextContents()).slice(0, 12)).toEqual(
    ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11'].map((n) => `Item ${n}`)
  )
  await page.close()
})
