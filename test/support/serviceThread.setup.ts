/**
 * Vitest global setup: builds the Local workspace's service thread from the sources once, for
 * every test file's cores (they run it as the app does: see serviceThread.ts). Into a folder
 * under node_modules/.cache, from where the script finds libsql as out/main's does.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { buildServiceThread, SERVICE_THREAD } from '../../electron.vite.config'
import { SERVICE_THREAD_ENV } from './serviceThread'

export default async function setup(): Promise<() => void> {
  const cache = resolve('node_modules/.cache/agent-desk')
  mkdirSync(cache, { recursive: true })
  const dir = mkdtempSync(join(cache, 'service-thread-'))
  const script = join(dir, SERVICE_THREAD.fileName)
  writeFileSync(script, await buildServiceThread())
  process.env[SERVICE_THREAD_ENV] = script
  return () => rmSync(dir, { recursive: true, force: true })
}
