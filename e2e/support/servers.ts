/**
 * Servers the e2e journeys sign in to:
 * - `remote`: the project's embedded service started as a separate server (a full server).
 * - `origin`: a server that offers ONLY what service-api.md shows — the origin-like odd server (strict
 *   about tag colours: `#RRGGBB` only, answered in lower case), or,
 *   under `npm run test:remote`, the external server named by AMS_BASE_URL / AMS_EMAIL / AMS_PASSWORD.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startService } from '../../src/service'
import { ORIGIN_DEFAULT_USER, startOriginLikeServer } from '../../test/servers/originLikeServer'

export interface TestServer {
  /** Base URL without /api/v1. */
  url: string
  email: string
  password: string
  /** Whether this server is the external one of test:remote. */
  external: boolean
  /** A prompt that exists there (the document has no way to create or list prompts). */
  promptId?: string
  stop(): Promise<void>
  start(): Promise<void>
  dispose(): Promise<void>
}

export async function startRemoteService(): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'agent-desk-remote-'))
  const email = 'remote.user@example.com'
  const password = 'correct horse battery'
  let service = await startService({ dataDir, port: 0, scryptCost: 1024 })
  const port = service.port
  const res = await fetch(`${service.url}/api/v1/auth/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, name: 'Remote User' })
  })
  if (res.status >= 300) throw new Error(`sign-up failed: ${res.status}`)
  let running = true
  const server: TestServer = {
    url: service.url,
    email,
    password,
    external: false,
    async stop() {
      if (!running) return
      await service.close()
      running = false
    },
    async start() {
      if (running) return
      service = await startService({ dataDir, port, scryptCost: 1024 })
      running = true
    },
    async dispose() {
      await server.stop()
      await rm(dataDir, { recursive: true, force: true })
    }
  }
  return server
}

export async function startOriginServer(): Promise<TestServer> {
  const external = process.env.AMS_BASE_URL
  if (external) {
    return {
      url: external,
      email: process.env.AMS_EMAIL ?? '',
      password: process.env.AMS_PASSWORD ?? '',
      external: true,
      ...(process.env.AMS_PROMPT_ID ? { promptId: process.env.AMS_PROMPT_ID } : {}),
      async stop() {
        throw new Error('An external server cannot be stopped by the tests.')
      },
      async start() {},
      async dispose() {}
    }
  }
  // Strict about tag colours like a server that implements only the document: `#RRGGBB` alone
  // (a typed `#c0f` must be expanded by the app) and answered in lower case (shown upper case).
  const origin = await startOriginLikeServer({ header: 'Authorization', colors: 'strictLower' })
  return {
    url: origin.url,
    email: ORIGIN_DEFAULT_USER.email,
    password: ORIGIN_DEFAULT_USER.password,
    external: false,
    ...(origin.promptIds[0] ? { promptId: origin.promptIds[0] } : {}),
    async stop() {
      origin.setMode('down')
    },
    async start() {
      origin.setMode('normal')
    },
    async dispose() {
      await origin.close()
    }
  }
}
