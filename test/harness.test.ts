/**
 * The e2e web harness itself (e2e/harness/server.ts), over real HTTP: static files only from
 * inside the renderer folder (a sibling `renderer-evil` is outside), bridge bodies capped (413),
 * and its session tokens kept under the tests' own keychain entry, never the app's. The keychain
 * test needs a Secret Service (npm test runs vitest inside one).
 */
import http from 'node:http'
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_BRIDGE_BODY, SECRET_HEADER, startHarness, type Harness } from '../e2e/harness/server'
import {
  createKeychain,
  KEYCHAIN_SERVICE,
  KEYCHAIN_SERVICE_ENV,
  keychainServiceName,
  TEST_KEYCHAIN_SERVICE
} from '../src/main/keychain'
import { tokenAccount } from '../src/main/tokenVault'
import { tempDir } from './support/mainCore'
import { testServiceThread } from './support/serviceThread'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

async function harness(): Promise<{ h: Harness; base: string }> {
  const base = realpathSync(tempDir('agent-desk-harness-'))
  const rendererDir = join(base, 'renderer')
  mkdirSync(join(rendererDir, 'assets'), { recursive: true })
  writeFileSync(join(rendererDir, 'index.html'), '<html><head></head><body>app</body></html>')
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log("app")')
  mkdirSync(`${rendererDir}-evil`)
  writeFileSync(join(`${rendererDir}-evil`, 'x.js'), 'evil')
  writeFileSync(join(base, 'secret.txt'), 'secret')
  const h = await startHarness({
    userDataDir: join(base, 'user-data'),
    rendererDir,
    serviceThread: testServiceThread()
  })
  cleanup.push(() => h.close())
  return { h, base }
}

interface Answer {
  status: number
  body: string
}

/** One raw request (the path is sent exactly as given); `chunks` go out with chunked encoding. */
function request(
  h: Harness,
  method: string,
  path: string,
  opts: { body?: string; chunks?: Buffer[]; origin?: string } = {}
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { [SECRET_HEADER]: h.secret, 'content-type': 'application/json' }
    if (opts.origin) headers.origin = opts.origin
    if (opts.body !== undefined) headers['content-length'] = String(Buffer.byteLength(opts.body))
    const u = new URL(h.url)
    const req = http.request({ host: u.hostname, port: u.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') })
      )
      res.on('error', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') })
      )
    })
    // The harness may close the connection while a large body is still going out.
    req.on('error', (e) => reject(e))
    if (opts.chunks) {
      const write = (i: number): void => {
        if (i >= opts.chunks!.length) return void req.end()
        if (req.destroyed) return
        req.write(opts.chunks![i], () => write(i + 1))
      }
      write(0)
    } else req.end(opts.body)
  })
}

describe('the e2e harness', () => {
  it('serves static files from inside the renderer folder only', async () => {
    const { h } = await harness()
    expect((await request(h, 'GET', '/assets/app.js')).body).toBe('console.log("app")')
    expect((await request(h, 'GET', '/')).body).toContain('/__bridge/bridge.js')
    for (const path of [
      '/..%2frenderer-evil/x.js',
      '/..%2Frenderer-evil%2Fx.js',
      '/..%2fsecret.txt',
      '/%E0%A4%A'
    ]) {
      const a = await request(h, 'GET', path)
      expect([path, a.status]).toEqual([path, 404])
      expect(a.body).not.toMatch(/evil|secret/)
    }
  })

  it('caps the bridge request body: 413 past the limit, declared or streamed', async () => {
    const { h } = await harness()
    const ok = await request(h, 'POST', '/__bridge/invoke', {
      body: JSON.stringify({ channel: 'app.info' }),
      origin: h.url
    })
    expect(ok.status).toBe(200)
    expect(JSON.parse(ok.body)).toMatchObject({ ok: true, value: { mode: 'harness' } })
    const big = JSON.stringify({ channel: 'tools.create', input: { blob: 'x'.repeat(MAX_BRIDGE_BODY) } })
    const declared = await request(h, 'POST', '/__bridge/invoke', { body: big, origin: h.url })
    expect(declared.status).toBe(413)
    const streamed = await request(h, 'POST', '/__bridge/invoke', {
      chunks: Array.from({ length: Math.ceil(MAX_BRIDGE_BODY / (1024 * 1024)) + 1 }, () =>
        Buffer.alloc(1024 * 1024, 'x')
      ),
      origin: h.url
    })
    expect(streamed.status).toBe(413)
    // Still answering.
    expect(
      (await request(h, 'POST', '/__bridge/invoke', { body: '{"channel":"app.info"}', origin: h.url })).status
    ).toBe(200)
  })

  it("keeps its session tokens under the tests' keychain entry, never the app's", async () => {
    expect(TEST_KEYCHAIN_SERVICE).not.toBe(KEYCHAIN_SERVICE)
    expect(keychainServiceName({}, false)).toBe(KEYCHAIN_SERVICE)
    expect(keychainServiceName({ [KEYCHAIN_SERVICE_ENV]: TEST_KEYCHAIN_SERVICE }, false)).toBe(
      TEST_KEYCHAIN_SERVICE
    )
    // An installed app keeps its own entry whatever the environment says.
    expect(keychainServiceName({ [KEYCHAIN_SERVICE_ENV]: TEST_KEYCHAIN_SERVICE }, true)).toBe(
      KEYCHAIN_SERVICE
    )

    const { h } = await harness()
    const started = await h.core().invoke('session.startLocal', undefined)
    expect(started).toMatchObject({ ok: true, value: { status: 'signedIn', keychain: 'os' } })
    const tests = await createKeychain(TEST_KEYCHAIN_SERVICE)
    expect(tests.kind).toBe('os')
    expect(await tests.get(tokenAccount('local'))).toMatch(/\S{16,}/)
    await h.core().invoke('session.signOut', { clearCache: true })
    expect(await tests.get(tokenAccount('local'))).toBeNull()
  })
})
