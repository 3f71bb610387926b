import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium'
import { electronBinary } from './support/electronBinary'

const electron = electronBinary()
if (!electron) {
  console.log('[e2e] No Electron binary on this machine: running the specs through the web harness only.')
}

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: '../test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 10_000
  },
  projects: [
    {
      name: 'harness',
      use: {
        browserName: 'chromium',
        launchOptions: {
          executablePath: CHROMIUM_PATH,
          args: CHROMIUM_ARGS
        }
      }
    },
    // @harness specs observe the web harness itself (its bridge requests).
    ...(electron ? [{ name: 'electron', metadata: { electron }, grepInvert: /@harness/ }] : [])
  ]
})
