/**
 * The service thread's script for tests: built once per test run from the sources, as the app's
 * build makes it (electron.vite.config.ts buildServiceThread), by the unit tests' global setup
 * (serviceThread.setup.ts); the benches point at the app's build (out/main/serviceThread.cjs).
 */
import { existsSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { BroadcastChannel } from 'node:worker_threads'

export const SERVICE_THREAD_ENV = 'AGENT_DESK_TEST_SERVICE_THREAD'

export function testServiceThread(): string {
  const script = process.env[SERVICE_THREAD_ENV]
  if (!script) {
    throw new Error(
      `${SERVICE_THREAD_ENV} is not set: run the unit tests with test/vitest.config.ts (its global setup builds the service thread)`
    )
  }
  return script
}

/** The app's built service thread (out/main/serviceThread.cjs; the benches build first). */
export function builtServiceThread(): string {
  const script = resolve('out/main/serviceThread.cjs')
  if (!existsSync(script))
    throw new Error(`No built service thread at ${script}: run "npx electron-vite build" first`)
  return script
}

/**
 * A service thread that stops (exit code 1, as a crash) when `stopServiceThreads()` is called: the
 * test build wrapped in a script of its own, written beside it. The app's code is unchanged.
 */
export function stoppableServiceThread(): string {
  const script = join(dirname(testServiceThread()), `stoppableServiceThread-${process.pid}.cjs`)
  if (!existsSync(script)) {
    writeFileSync(
      script,
      `const { BroadcastChannel } = require('node:worker_threads')\n` +
        `new BroadcastChannel(${JSON.stringify(STOP_CHANNEL)}).onmessage = () => process.exit(1)\n` +
        `require(${JSON.stringify(testServiceThread())})\n`
    )
  }
  return script
}

const STOP_CHANNEL = 'agent-desk-test:stop-service-threads'

/** Stops every stoppableServiceThread() running in this process. */
export function stopServiceThreads(): void {
  const channel = new BroadcastChannel(STOP_CHANNEL)
  channel.postMessage('stop')
  channel.close()
}
