/**
 * The lists as a user with more than a handful of items meets them: search, filters and sorting
 * in the agents list, and a start that asks for the opening list once, before the app's code runs.
 */
import { test, expect } from './support/fixtures'
import { choose, openLocalWorkspace, tid } from './support/ui'
import type { Page, Request } from '@playwright/test'

const rowNames = (page: Page) => tid(page, 'agent-row').locator('.agent-row__name').allTextContents()

/**
 * Every call the page makes over the harness's bridge from now on (@harness specs only): its
 * channel ("… (cache)" for a cache-only read) and its request.
 */
function onBridgeCall(page: Page, listener: (call: string, request: Request) => void): void {
  page.on('request', (r) => {
    if (r.url().endsWith('/__bridge/invoke')) listener(bridgeCall(r), r)
  })
}

/** A bridge request's call: its channel ("… (cache)" for a cache-only read). */
function bridgeCall(r: Request): string {
  const body = JSON.parse(r.postData() ?? '{}') as { channel: string; input?: { cacheOnly?: boolean } }
  return body.input?.cacheOnly ? `${body.channel} (cache)` : body.channel
}

/** The Local workspace opened on the tools view, showing one tool (`name`) made through the app's API. */
async function toolsWithOne(page: Page, name: string, description: string): Promise<void> {
  await openLocalWorkspace(page)
  await page.evaluate(
    ([name, description]) => window.agentDesk.tools.create({ name, type: 'SEARCH', description }),
    [name, description] as const
  )
  await tid(page, 'nav-tools').click()
  await expect(tid(page, 'tool-row')).toHaveCount(1)
}

test('agents: search by name, filter by type and tags, sort by name and date', async ({ app }) => {
  const { page } = app
  await openLocalWorkspace(page)
  // Created through the app's own IPC API (main → embedded service), oldest first.
  await page.evaluate(async () => {
    const api = window.agentDesk
    const red = await api.tags.create({ name: 'red', color: '#C00' })
    const blue = await api.tags.create({ name: 'blue', color: '#00C' })
    const llm = { provider: 'openai', model: 'gpt-4o' }
    const tag = (t: { data: { id: string; name?: string; color?: string } }) => ({
      id: t.data.id,
      name: t.data.name ?? '',
      color: t.data.color ?? ''
    })
    await api.agents.create({ name: 'agent 10', type: 'REACT', llm, tags: [tag(red)] })
    await api.agents.create({ name: 'Beta helper', type: 'CHATVENDOR', llm, tags: [tag(red), tag(blue)] })
    await api.agents.create({ name: 'agent 9', type: 'CHATVENDOR', llm, tags: [tag(blue)] })
    await api.agents.create({ name: 'Alpha', type: 'REACT', llm })
  })
  await page.reload()
  await expect(tid(page, 'agent-row')).toHaveCount(4)
  await expect(tid(page, 'list-count')).toHaveText('4')

  // Name A–Z by default: case-insensitive, numbers in natural order.
  await expect.poll(() => rowNames(page)).toEqual(['agent 9', 'agent 10', 'Alpha', 'Beta helper'])

  await tid(page, 'list-filter').fill('AGENT')
  await expect(tid(page, 'agent-row')).toHaveCount(2)
  await tid(page, 'list-filter').fill('')

  await choose(page, 'filter-type', 'Chat (vendor)')
  await expect(tid(page, 'agent-row')).toHaveCount(2)
  await expect.poll(() => rowNames(page)).toEqual(['agent 9', 'Beta helper'])
  // Both tags required.
  const tags = tid(page, 'filter-tags')
  await tags.getByTestId('tag-chip').filter({ hasText: 'red' }).click()
  await expect(tid(page, 'agent-row')).toHaveCount(1)
  await tags.getByTestId('tag-chip').filter({ hasText: 'blue' }).click()
  await expect.poll(() => rowNames(page)).toEqual(['Beta helper'])
  await tags.getByTestId('tag-chip').filter({ hasText: 'red' }).click()
  await expect(tid(page, 'agent-row')).toHaveCount(2)
  await tags.getByTestId('tag-chip').filter({ hasText: 'blue' }).click()
  // Clearing the type shows everything again; sort by date both ways.
  await tid(page, 'filter-type').locator('.n-base-clear').click()
  await expect(tid(page, 'agent-row')).toHaveCount(4)
  await choose(page, 'sort', 'Newest first')
  await expect.poll(() => rowNames(page)).toEqual(['Alpha', 'agent 9', 'Beta helper', 'agent 10'])
  await choose(page, 'sort', 'Oldest first')
  await expect.poll(() => rowNames(page)).toEqual(['agent 10', 'Beta helper', 'agent 9', 'Alpha'])
  // Sorting keeps the search.
  await tid(page, 'list-filter').fill('agent')
  await expect.poll(() => rowNames(page)).toEqual(['agent 10', 'agent 9'])
})

// @harness: it reads the bridge's requests, which only the web harness has (see playwright.config.ts).
test('a start reads the session and the opening list once, before the app asks @harness', async ({ app }) => {
  const { page } = app
  await toolsWithOne(page, 'Web search', 'Looks things up')
  const calls: string[] = []
  onBridgeCall(page, (call) => calls.push(call))
  await page.reload() // a fresh start of the renderer on the tools view
  await expect(tid(page, 'tool-row')).toHaveCount(1)
  await expect(tid(page, 'tool-row')).toContainText('Web search')
  // Asked before anything else, and the cached list only once (the view took the early answer).
  expect(calls.slice(0, 2)).toEqual(['session.get', 'tools.list (cache)'])
  expect(calls.filter((c) => c === 'session.get')).toHaveLength(1)
  expect(calls.filter((c) => c === 'tools.list (cache)')).toHaveLength(1)
  // Then the network refresh of the same list.
  await expect.poll(() => calls.includes('tools.list')).toBe(true)
})

// @harness: it reads the bridge's requests; the harness sends lists of more than 3 items in pieces.
test('a long list comes in pieces and shows whole @harness', async ({ app }) => {
  const { page } = app
  await openLocalWorkspace(page)
  await page.evaluate(async () => {
    const llm = { provider: 'openai', model: 'gpt-4o' }
    for (let i = 1; i <= 8; i++)
      await window.agentDesk.agents.create({ name: `piece ${i}`, type: 'REACT', llm })
  })
  const pieces: string[] = []
  onBridgeCall(page, (call) => {
    if (call === 'answers.next') pieces.push(call)
  })
  await page.reload()
  await expect(tid(page, 'list-count')).toHaveText('8')
  await expect.poll(() => rowNames(page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((i) => `piece ${i}`))
  // 8 items in pieces of 3: two more pieces for the cached list at start and two for the network's.
  await expect.poll(() => pieces.length).toBeGreaterThanOrEqual(4)
})

// @harness: it reads the bridge's requests and answers.
test('changes in a burst reload the open list one read at a time, and it ends whole @harness', async ({
  app
}) => {
  const { page } = app
  await toolsWithOne(page, 'tool 0', 'x')
  // Every network read of the tools list, from its ask until its answer (its first piece).
  let open = 0
  let most = 0
  let reads = 0
  const asks = new Set<Request>()
  onBridgeCall(page, (call, r) => {
    if (call !== 'tools.list') return
    asks.add(r)
    reads++
    most = Math.max(most, ++open)
  })
  page.on('requestfinished', (r) => {
    if (asks.delete(r)) open--
  })
  // 12 creates at once: 12 changes of the tools list in a burst.
  await page.evaluate(() =>
    Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        window.agentDesk.tools.create({ name: `tool ${i + 1}`, type: 'SEARCH', description: 'x' })
      )
    )
  )
  await expect(tid(page, 'list-count')).toHaveText('13')
  await expect.poll(() => open).toBe(0)
  expect(reads).toBeGreaterThanOrEqual(1)
  expect(most).toBe(1)
  expect(reads).toBeLessThan(12)
})

// @harness: it holds a read on the bridge.
test('a list that refreshes shows its bar without moving its rows @harness', async ({ app }) => {
  const { page } = app
  await toolsWithOne(page, 'tool 0', 'x')
  const top = () =>
    tid(page, 'tool-row')
      .first()
      .evaluate((e) => e.getBoundingClientRect().top)
  const before = await top()
  // The next network read of the tools list is held until released.
  let release = () => {}
  const released = new Promise<void>((r) => (release = r))
  await page.route('**/__bridge/invoke', async (route) => {
    if (bridgeCall(route.request()) === 'tools.list') await released
    await route.continue()
  })
  await page.evaluate(() =>
    window.agentDesk.tools.create({ name: 'tool 1', type: 'SEARCH', description: 'x' })
  )
  await expect(tid(page, 'list-refreshing')).toBeVisible()
  expect(await top()).toBe(before)
  release()
  await expect(tid(page, 'list-count')).toHaveText('2')
  await expect(tid(page, 'list-refreshing')).toHaveCount(0)
  expect(await top()).toBe(before)
})
