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
  // No retries: a flake is fixed, not hidden. The limits below are upper bounds on waits for state
  // (no spec sleeps), sized for a CI runner or a shared machine under load: a test that passes
  // takes no longer for them. Measured: on 2 cores with two CPU burners and other work beside
  // the suite (load average above 20), journeys took over 60 s and single waits over 10 s.
  retries: 0,
  timeout: 150_000,
  expect: { timeout: 25_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 25_000
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
