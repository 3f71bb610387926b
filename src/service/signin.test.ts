/**
 * Issue 12 item 8: sign-in back-off (429 + Retry-After), scrypt 2^17 for new hashes while old
 * hashes keep their parameters, TLS, and the CLI's warning for a non-loopback host without TLS.
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { request } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'libsql'
import { afterAll, describe, expect, it } from 'vitest'
import { ErrorEnvelope } from '../shared'
import { call, signUp, startTestServer, type TestServer } from '../../test/support/serviceKit'
import { DEFAULT_SCRYPT_COST } from './auth'
import { startService } from './index'

const root = fileURLToPath(new URL('../..', import.meta.url))
const servers: TestServer[] = []
afterAll(async () => {
  for (const s of servers) await s.stop()
})
async function server(extra: Parameters<typeof startTestServer>[0] = {}) {
  const s = await startTestServer(extra)
  servers.push(s)
  return s
}

const signIn = (base: string, email: string, password: string) =>
  call(base, 'POST', '/auth/sign-in', { body: { email, password } })

function storedHash(dataDir: string, email: string): string {
  const db = new Database(join(dataDir, 'service.db'))
  try {
    return String(
      (db.prepare('SELECT password_hash FROM users WHERE email = ?').get(email) as Row).password_hash
    )
  } finally {
    db.close()
  }
}
type Row = Record<string, unknown>

describe('sign-in back-off', () => {
  it('answers 429 with Retry-After after 5 failures per account, even to the right password, until it passes', async () => {
    let now = Date.now()
    const s = await server({ signInThrottle: { now: () => now } })
    const u = await signUp(s.base, 'Guessed')
    for (let i = 0; i < 5; i++) expect((await signIn(s.base, u.email, `guess-${i}`)).status).toBe(401)
    expect((await signIn(s.base, u.email, 'guess-5')).status).toBe(401) // 6th failure: now locked 1 s
    const locked = await signIn(s.base, u.email, u.password)
    expect(locked.status).toBe(429)
    expect(ErrorEnvelope.parse(locked.json).error.code).toBe('rate_limited')
    expect(locked.headers.get('retry-after')).toBe('1')
    expect(ErrorEnvelope.parse(locked.json).error.message).toMatch(/try again in 1 s/)

    now += 1000
    expect((await signIn(s.base, u.email, 'guess-6')).status).toBe(401) // 7th: locked 2 s
    const longer = await signIn(s.base, u.email, u.password)
    expect(longer.headers.get('retry-after')).toBe('2')
    expect((await signIn(s.base, u.email.toUpperCase(), u.password)).status).toBe(429)

    now += 2000
    expect((await signIn(s.base, u.email, u.password)).status).toBe(200) // success resets
    expect((await signIn(s.base, u.email, 'after-reset')).status).toBe(401)
    expect((await signIn(s.base, u.email, u.password)).status).toBe(200)
  })

  it('backs off per address across accounts, and unknown accounts count too', async () => {
    let now = Date.now()
    const s = await server({ signInThrottle: { now: () => now, addressFree: 3 } })
    const u = await signUp(s.base, 'Sprayed')
    for (let i = 0; i < 4; i++) expect((await signIn(s.base, `nobody${i}@example.com`, 'x')).status).toBe(401)
    const r = await signIn(s.base, u.email, u.password)
    expect(r.status).toBe(429)
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    now += 1000
    expect((await signIn(s.base, u.email, u.password)).status).toBe(200)
  })
})

describe('scrypt cost', () => {
  it('hashes new passwords with N = 2^17 by default', async () => {
    expect(DEFAULT_SCRYPT_COST).toBe(2 ** 17)
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-desk-scrypt-'))
    const svc = await startService({ dataDir, logger: () => undefined })
    try {
      const base = `${svc.url}/api/v1`
      const u = await signUp(base, 'Costly')
      expect(storedHash(dataDir, u.email)).toMatch(/^scrypt\$131072\$8\$1\$/)
      expect((await signIn(base, u.email, u.password)).status).toBe(200)
    } finally {
      await svc.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('still verifies a hash made with older parameters, and keeps it as it is', async () => {
    const s = await server({ scryptCost: 1024 })
    const u = await signUp(s.base, 'Old')
    const before = storedHash(s.dataDir, u.email)
    expect(before).toMatch(/^scrypt\$1024\$/)
    await s.restart({ scryptCost: 4096 })
    expect((await signIn(s.base, u.email, u.password)).status).toBe(200)
    expect((await signIn(s.base, u.email, 'wrong')).status).toBe(401)
    expect(storedHash(s.dataDir, u.email)).toBe(before)
  })
})

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()

function selfSigned(dir: string) {
  const key = join(dir, 'key.pem')
  const cert = join(dir, 'cert.pem')
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1'
    ],
    { stdio: 'ignore' }
  )
  return { key, cert }
}

function httpsGet(url: string, ca: Buffer) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(url, { ca }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (body += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

/** Runs the CLI until it prints its URL (or exits); returns what it said. */
function cli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/service/cli.ts', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let out = ''
  let err = ''
  child.stdout.on('data', (c: Buffer) => (out += c.toString()))
  child.stderr.on('data', (c: Buffer) => (err += c.toString()))
  const listening = new Promise<{ out: string; err: string; code: number | null }>((resolve) => {
    child.stdout.on('data', () => {
      if (/listening on/.test(out)) resolve({ out, err, code: null })
    })
    child.on('exit', (code) => resolve({ out, err, code }))
  })
  const stopped = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  return {
    listening,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM')
      await stopped
    }
  }
}

describe.runIf(hasOpenssl)('TLS', () => {
  it('serves HTTPS with --tls-cert/--tls-key, and startService({ tls }) too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-desk-tls-'))
    try {
      const { key, cert } = selfSigned(dir)
      const ca = readFileSync(cert)
      const svc = await startService({
        dataDir: join(dir, 'data'),
        scryptCost: 16,
        tls: { cert: ca, key: readFileSync(key) },
        logger: () => undefined
      })
      try {
        expect(svc.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
        const r = await httpsGet(`${svc.url}/api/v1/agents`, ca)
        expect(r.status).toBe(401)
        expect(ErrorEnvelope.parse(JSON.parse(r.body)).error.code).toBe('unauthorized')
      } finally {
        await svc.close()
      }

      const run = cli(['--port', '0', '--data', join(dir, 'cli'), '--tls-cert', cert, '--tls-key', key])
      try {
        const said = await run.listening
        const url = /listening on (\S+)/.exec(said.out)?.[1] ?? ''
        expect(url).toMatch(/^https:\/\//)
        expect((await httpsGet(`${url}/agents`, ca)).status).toBe(401)
        expect(said.err).not.toMatch(/WARNING/)
      } finally {
        await run.stop()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('CLI host warning', () => {
  it('warns when --host is not loopback and TLS is off; not on loopback', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-desk-cli-'))
    try {
      const open = cli(['--port', '0', '--host', '0.0.0.0', '--data', join(dir, 'a')])
      const a = await open.listening
      await open.stop()
      expect(a.err).toMatch(/WARNING: --host 0\.0\.0\.0 is not a loopback address and TLS is off/)
      const local = cli(['--port', '0', '--data', join(dir, 'b')])
      const b = await local.listening
      await local.stop()
      expect(b.out).toMatch(/listening on http:\/\/127\.0\.0\.1/)
      expect(b.err).not.toMatch(/WARNING/)
      const half = cli(['--port', '0', '--data', join(dir, 'c'), '--tls-cert', 'x.pem'])
      const c = await half.listening
      expect(c.code).toBe(1)
      expect(c.err).toMatch(/--tls-cert and --tls-key go together/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
