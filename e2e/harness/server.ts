/**
 * The e2e web harness: serves the BUILT renderer (out/renderer) to Debian Chromium and hosts the
 * same IPC table the Electron main registers (core.invoke), so Playwright drives the real renderer,
 * the real main-process code, the real keychain and a real server.
 *
 * Security: binds to 127.0.0.1 only; every request must carry the per-run secret header (Playwright
 * sets it with extraHTTPHeaders), and bridge calls must come from the harness's own origin, with a
 * body of at most 4 MiB (413 beyond; the core refuses inputs over 1 MiB in words). Static files
 * come from inside the renderer folder only. The keychain entries are the tests' own
 * (TEST_KEYCHAIN_SERVICE), never the app's.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { readFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { extname, join, normalize, resolve } from 'node:path'
import type { AddressInfo } from 'node:net'
import { bridgeScript } from './bridge'
import { createCore, type Core } from '../../src/main/core'
import { createKeychain, TEST_KEYCHAIN_SERVICE } from '../../src/main/keychain'
import { isInside } from '../../src/main/security'
import type { EventName, IpcEvents } from '../../src/shared/ipc'
import { MAX_TRANSFER_BYTES } from '../../src/shared/transfer'
import { builtServiceThread } from '../../test/support/serviceThread'

export const SECRET_HEADER = 'x-agent-desk-harness'
/** The largest bridge request body kept (beyond: 413, the rest dropped unread): an import file's text, JSON-escaped. */
export const MAX_BRIDGE_BODY = 2 * MAX_TRANSFER_BYTES + 1024 * 1024

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json'
}

export interface HarnessOptions {
  userDataDir: string
  rendererDir?: string
  /** The built service thread (default out/main/serviceThread.cjs). */
  serviceThread?: string
  version?: string
  /** The keychain entry name. Default TEST_KEYCHAIN_SERVICE: the tests never touch the app's entries. */
  keychainService?: string
  /** Items in one piece of a long list's answer (the core's `answerPieceItems`; default the app's). */
  answerPieceItems?: number
}

export interface Harness {
  url: string
  secret: string
  /** The app's core as it runs now (replaced by restartApp). */
  core(): Core
  /** Quits the app core and starts it again on the same user-data dir, as a user restarting the app. */
  restartApp(): Promise<void>
  /**
   * Sends a main → renderer event that the Electron main sends outside the core (the application
   * menu's `menu.command`), over the same event stream.
   */
  emit<E extends EventName>(event: E, payload: IpcEvents[E]): void
  close(): Promise<void>
}

export async function startHarness(opts: HarnessOptions): Promise<Harness> {
  const rendererDir = resolve(opts.rendererDir ?? join(process.cwd(), 'out/renderer'))
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new Error(`No built renderer at ${rendererDir}: run "npm run build" first.`)
  }
  const serviceThread = opts.serviceThread ?? builtServiceThread()
  const secret = randomBytes(24).toString('base64url')
  const keychain = await createKeychain(opts.keychainService ?? TEST_KEYCHAIN_SERVICE)
  const makeCore = () =>
    createCore({
      userDataDir: opts.userDataDir,
      keychain,
      mode: 'harness',
      serviceThread,
      version: opts.version ?? '0.0.0-e2e',
      openExternal: async () => undefined,
      fetchTimeoutMs: 4000,
      ...(opts.answerPieceItems ? { answerPieceItems: opts.answerPieceItems } : {})
    })
  let core = makeCore()
  const streams = new Set<ServerResponse>()
  const relay = (event: EventName, payload: unknown) => {
    const line = `data: ${JSON.stringify({ event, payload })}\n\n`
    for (const s of streams) s.write(line)
  }
  let unsubscribe = core.subscribe(relay)
  const bridge = bridgeScript()
  let origin = ''

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(String(e))
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (req.headers[SECRET_HEADER] !== secret) {
      res.writeHead(403, { 'content-type': 'text/plain' })
      res.end('forbidden')
      return
    }
    const url = new URL(req.url ?? '/', origin)
    if (url.pathname === '/__bridge/bridge.js') {
      res.writeHead(200, { 'content-type': TYPES['.js'], 'cache-control': 'no-store' })
      res.end(bridge)
      return
    }
    if (url.pathname === '/__bridge/events') {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive'
      })
      res.write(': connected\n\n')
      streams.add(res)
      req.on('close', () => streams.delete(res))
      return
    }
    if (url.pathname === '/__bridge/invoke') {
      // The IPC sender check: only the harness's own page may call.
      if (req.method !== 'POST' || req.headers.origin !== origin) {
        res.writeHead(403, { 'content-type': 'text/plain' })
        res.end('untrusted sender')
        return
      }
      const text = await readBody(req)
      if (text === null) {
        res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' })
        // The rest of the body is dropped unkept (so the sender gets this answer, not a reset while
        // it is still writing); the connection closes once the answer is out.
        req.resume()
        res.end('request too large')
        return
      }
      const body = JSON.parse(text) as { channel: string; input?: unknown; callId?: unknown }
      const reply = await core.invoke(body.channel, body.input, body.callId)
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(reply))
      return
    }
    // Static files of the built renderer; index.html gets the bridge script first.
    let rel: string | null = '/index.html'
    try {
      if (url.pathname !== '/') rel = decodeURIComponent(url.pathname)
    } catch {
      rel = null
    }
    const file = rel === null || rel.includes('\0') ? null : normalize(join(rendererDir, rel))
    // Inside the folder, with the separator: `/out/renderer-evil` is not in `/out/renderer`.
    const content = file && isInside(rendererDir, file) ? await staticFile(file) : null
    if (content === null || file === null || rel === null) {
      res.writeHead(404, { 'content-type': 'text/plain' })
      res.end('not found')
      return
    }
    // As a web server serves a Vite build: hashed assets never change, the page is revalidated.
    // A browser profile that is kept (the later-starts benchmark) then starts from its caches, as
    // Electron does from its app scheme's code cache.
    const immutable = rel.startsWith('/assets/')
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache'
    })
    res.end(content)
  }

  /** The body as text, or null past MAX_BRIDGE_BODY (declared or sent). */
  function readBody(req: IncomingMessage): Promise<string | null> {
    if (Number(req.headers['content-length'] ?? 0) > MAX_BRIDGE_BODY) return Promise.resolve(null)
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = []
      let total = 0
      const onData = (c: Buffer) => {
        total += c.length
        if (total <= MAX_BRIDGE_BODY) return void chunks.push(c)
        // Stop keeping it (the rest is dropped while the 413 goes out).
        req.off('data', onData)
        req.pause()
        resolve(null)
      }
      req.on('data', onData)
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
      req.on('error', reject)
    })
  }

  // The built files are read once and served from memory, as Electron reads them from its own
  // package: the harness's disk reads are not part of what a start measures.
  const files = new Map<string, Promise<Buffer | null>>()
  function staticFile(file: string): Promise<Buffer | null> {
    let p = files.get(file)
    if (!p) {
      p = readFile(file).then(
        (b) =>
          file.endsWith('index.html')
            ? Buffer.from(
                b
                  .toString('utf8')
                  .replace('<head>', '<head>\n    <script src="/__bridge/bridge.js"></script>')
              )
            : b,
        () => null
      )
      files.set(file, p)
    }
    return p
  }

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  origin = `http://127.0.0.1:${port}`

  return {
    url: origin,
    secret,
    core: () => core,
    emit(event, payload) {
      relay(event, payload)
    },
    async restartApp() {
      unsubscribe()
      await core.dispose()
      core = makeCore()
      unsubscribe = core.subscribe(relay)
    },
    async close() {
      unsubscribe()
      for (const s of streams) s.end()
      server.closeAllConnections()
      await new Promise<void>((r) => server.close(() => r()))
      await core.dispose()
    }
  }
}
