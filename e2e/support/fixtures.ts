/**
 * The `app` fixture: the real renderer driven by Playwright, either through the web harness
 * (Debian Chromium + the same IPC table in this process) or, where an Electron binary exists,
 * through Playwright's Electron launcher. Specs are written once against `app.page`.
 */
import {
  test as base,
  expect,
  _electron,
  type Page,
  type BrowserContext,
  type ElectronApplication
} from '@playwright/test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SECRET_HEADER, startHarness, type Harness } from '../harness/server'
import { startOriginServer, startRemoteService, type TestServer } from './servers'
import { electronBinary } from './electronBinary'
import { KEYCHAIN_SERVICE_ENV, TEST_KEYCHAIN_SERVICE } from '../../src/main/keychain'
import { buildMenuTemplate, flattenMenu, HELP_LINKS } from '../../src/main/desktop/menu'
import { isMenuCommand, type MenuCommand } from '../../src/shared/menu'

export interface AppHandle {
  page: Page
  mode: 'harness' | 'electron'
  userDataDir: string
  /** Quit the app and start it again on the same user data, returning the new page. */
  restart(): Promise<Page>
  /**
   * Chooses an application-menu item by its id (see src/main/desktop/menu.ts): in Electron the real
   * menu item is clicked; through the harness its command is sent as the Electron glue sends it.
   */
  chooseMenuItem(id: string): Promise<void>
  /** The text on the clipboard. */
  clipboardText(): Promise<string>
}

/** The renderer command of a menu item, as the Electron glue sends it. */
function menuCommandOf(id: string): MenuCommand {
  const template = buildMenuTemplate({
    platform: process.platform,
    isDev: false,
    appName: 'Agent Desk',
    links: HELP_LINKS
  })
  const command = flattenMenu(template).find((i) => i.id === id)?.command
  if (!isMenuCommand(command)) throw new Error(`No menu item "${id}" with a renderer command`)
  return command
}

async function launchElectron(
  bin: string,
  userDataDir: string
): Promise<{ app: ElectronApplication; page: Page }> {
  const app = await _electron.launch({
    executablePath: bin,
    // The specs read English: the app's "As the system" language must be English on any machine.
    args: [join(process.cwd(), 'out/main/index.js'), '--lang=en-US'],
    env: {
      ...process.env,
      AGENT_DESK_USER_DATA: userDataDir,
      // The tests' own keychain entries, never the app's.
      [KEYCHAIN_SERVICE_ENV]: TEST_KEYCHAIN_SERVICE
    } as Record<string, string>
  })
  const page = await app.firstWindow()
  await appStarted(page)
  return { app, page }
}

/**
 * Waits until the app has chosen its first view (main.ts marks it). A start may draw its first
 * frame before the app's code runs (firstFrame/shell.ts), and vue-router listens to the address
 * only once its first navigation is done: a spec that changes the address earlier is overruled.
 */
async function appStarted(page: Page): Promise<void> {
  await page.waitForFunction(() => performance.getEntriesByName('agent-desk:first-view').length > 0, null, {
    polling: 50
  })
}

export const test = base.extend<{ app: AppHandle; remote: TestServer; origin: TestServer }>({
  app: async ({ browser }, use, testInfo) => {
    const userDataDir = await mkdtemp(join(tmpdir(), 'agent-desk-e2e-'))
    if (testInfo.project.name === 'electron') {
      const bin = electronBinary()
      if (!bin) throw new Error('The electron project runs only where an Electron binary exists.')
      let current = await launchElectron(bin, userDataDir)
      const handle: AppHandle = {
        page: current.page,
        mode: 'electron',
        userDataDir,
        async restart() {
          await current.app.close()
          current = await launchElectron(bin, userDataDir)
          handle.page = current.page
          return current.page
        },
        async chooseMenuItem(id) {
          const found = await current.app.evaluate(({ Menu }, itemId) => {
            const item = Menu.getApplicationMenu()?.getMenuItemById(itemId)
            item?.click()
            return !!item
          }, id)
          if (!found) throw new Error(`No menu item "${id}"`)
        },
        clipboardText: () => current.app.evaluate(({ clipboard }) => clipboard.readText())
      }
      await use(handle)
      await current.app.close()
    } else {
      // Lists of more than 3 items come in pieces (src/main/answerPieces.ts), so the specs' lists
      // cross the bridge as a list of thousands does in the app.
      const harness: Harness = await startHarness({ userDataDir, answerPieceItems: 3 })
      let context = null as BrowserContext | null
      // The page's storage lives on across a restart, as Electron keeps it in the user-data folder.
      type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>
      const open = async (storageState?: StorageState) => {
        context = await browser.newContext({
          ...(storageState ? { storageState } : {}),
          baseURL: harness.url,
          extraHTTPHeaders: { [SECRET_HEADER]: harness.secret },
          viewport: { width: 1280, height: 800 },
          // The specs read English: "As the system" must mean English on any machine.
          locale: 'en-US'
        })
        const page = await context.newPage()
        page.on('pageerror', (e) => console.log(`[renderer] ${e.message}`))
        await page.goto('/')
        await appStarted(page)
        return page
      }
      const handle: AppHandle = {
        page: await open(),
        mode: 'harness',
        userDataDir,
        async restart() {
          const kept = await context?.storageState()
          await context?.close()
          await harness.restartApp()
          handle.page = await open(kept)
          return handle.page
        },
        async chooseMenuItem(id) {
          harness.emit('menu.command', { command: menuCommandOf(id) })
        },
        async clipboardText() {
          await context?.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.url })
          return handle.page.evaluate(() => navigator.clipboard.readText())
        }
      }
      await use(handle)
      await context?.close()
      await harness.close()
    }
    await rm(userDataDir, { recursive: true, force: true })
  },

  remote: async ({}, use) => {
    const server = await startRemoteService()
    await use(server)
    await server.dispose()
  },

  origin: async ({}, use) => {
    const server = await startOriginServer()
    await use(server)
    await server.dispose()
  }
})

export { expect }
