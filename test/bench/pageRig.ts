/**
 * What the renderer's profiling aids stand on: the embedded service (a child process), an account
 * seeded on it, the web harness serving the built renderer with the core signed in to that
 * account, the floor page, and Debian Chromium; all torn down after `use`.
 */
import { chromium, type Browser, type BrowserContext } from '@playwright/test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SECRET_HEADER, startHarness, type Harness } from '../../e2e/harness/server'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/support/chromium'
import { startFloorPage, type FloorPage } from './floorPage'
import {
  closeSeedConnections,
  seedAccount,
  startBenchService,
  type SeedOptions,
  type SeedResult
} from './seed'
import { rendererDir } from './sourceKey'

export interface PageRig {
  harness: Harness
  floor: FloorPage
  browser: Browser
  seed: SeedResult
  /** A fresh browser context that may call the harness (1280×800). */
  context(): Promise<BrowserContext>
}

export async function withPageRig(
  seedOptions: SeedOptions,
  use: (rig: PageRig) => Promise<void>
): Promise<void> {
  const service = await startBenchService()
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-desk-profile-'))
  const harness = await startHarness({ userDataDir: dataDir, rendererDir })
  const floor = await startFloorPage()
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
  try {
    const seed = await seedAccount(service.url, seedOptions)
    const saved = await harness.core().invoke('profiles.save', { name: 'Profile', baseUrl: service.url })
    if (!saved.ok) throw new Error(saved.error.message)
    const profileId = (saved.value as { id: string }).id
    const signedIn = await harness
      .core()
      .invoke('session.signIn', { profileId, email: seed.email, password: seed.password })
    if (!signedIn.ok) throw new Error(signedIn.error.message)
    const context = () =>
      browser.newContext({
        extraHTTPHeaders: { [SECRET_HEADER]: harness.secret },
        viewport: { width: 1280, height: 800 }
      })
    await use({ harness, floor, browser, seed, context })
  } finally {
    await browser.close()
    await floor.close()
    await harness.close()
    await closeSeedConnections()
    await service.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** Prints a map's largest entries, each divided by `per` (ms per start, per key…). */
export function printTop(
  map: Map<string, number>,
  per: number,
  count: number,
  digits = 1,
  suffix = (_k: string) => ''
): void {
  for (const [k, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count))
    console.log(`${(ms / per).toFixed(digits).padStart(8)} ms  ${k}${suffix(k)}`)
}
