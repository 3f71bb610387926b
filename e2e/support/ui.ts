import { expect, type Page } from '@playwright/test'
import type { TestServer } from './servers'

export const tid = (page: Page, id: string) => page.getByTestId(id)

declare global {
  interface Window {
    /** Installed by the web harness's bridge (e2e/harness/bridge.ts). */
    __agentDeskBridge?: { inFlight: number; done: number }
  }
}

/**
 * Waits until the app is quiet: no IPC call in flight and none made between two looks (a list's
 * network refresh after its cached answer, a refetch after `data.changed`), so what is on screen
 * will not re-render under the pointer. Through the web harness only; in Electron it returns at once.
 */
export async function settled(page: Page): Promise<void> {
  let last = ''
  await expect
    .poll(
      async () => {
        const now = await page.evaluate(() => {
          const t = window.__agentDeskBridge
          return t ? `${t.inFlight}:${t.done}` : 'electron'
        })
        const quiet = now === 'electron' || (now.startsWith('0:') && now === last)
        last = now
        return quiet
      },
      { intervals: [50, 100, 150, 250], timeout: 45_000 }
    )
    .toBe(true)
}

/** First screen → one click → the Local workspace's agents list. */
export async function openLocalWorkspace(page: Page) {
  await tid(page, 'local-workspace-button').click()
  await expect(tid(page, 'nav-agents')).toBeVisible()
  await expect(page).toHaveURL(/#\/agents/)
}

/** Adds a server profile on the sign-in screen and selects it. */
export async function addProfile(page: Page, name: string, server: TestServer) {
  await tid(page, 'profile-add').click()
  const form = tid(page, 'profile-form')
  await form.getByTestId('profile-name').fill(name)
  await form.getByTestId('profile-base-url').fill(server.url)
  await tid(page, 'profile-save').click()
  await expect(form).toBeHidden()
}

export async function signInWithPassword(page: Page, email: string, password: string) {
  await tid(page, 'signin-email').fill(email)
  await tid(page, 'signin-password').fill(password)
  await tid(page, 'signin-submit').click()
}

export async function signInToServer(page: Page, server: TestServer, name = 'Team server') {
  await addProfile(page, name, server)
  await signInWithPassword(page, server.email, server.password)
  await expect(tid(page, 'nav-agents')).toBeVisible()
}

/** Picks an option of a naive-ui NSelect found by test id. */
export async function choose(page: Page, selectTestId: string, optionText: string | RegExp) {
  await tid(page, selectTestId).click()
  await page.locator('.n-base-select-option', { hasText: optionText }).first().click()
}
