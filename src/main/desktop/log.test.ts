import { readdirSync, readFileSync } from 'node:fs'
import { Console } from 'node:console'
import { Writable } from 'node:stream'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/support/tempDirs'
import { memoryKeychain } from '../keychain'
import { captureConsole, createFileLog, registeringSecrets, registerSecret } from './log'
import { clearSecrets, redactText } from './redact'

const temp = () => tempDir('agent-desk-log-')
/** Every file the log folder holds, rotated ones included, as one text. */
const allLogs = (dir: string) =>
  readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n')

// A session token as the embedded service issues them (opaque), a JWT, a password, an API key.
const SESSION = 'sess_Q2hhcmxpZSBpcyB0aGUgYmVzdA_7f3a9c'
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyLTEiLCJpYXQiOjE3MDAwMDAwMDB9.c2lnbmF0dXJlLXRoYXQtaXMtbG9uZw'
const PASSWORD = 'correct horse battery staple'
const API_KEY = 'ak_live_5b1c0f2e9d8a7b6c'
const OAUTH = 'oauth-TOKEN-in-a-url-12345'

afterEach(() => clearSecrets())

describe('the log file', () => {
  it('never holds a token or a password, however it is logged', () => {
    const dir = temp()
    const log = createFileLog({ dir })
    registerSecret(SESSION)
    log.warn(`request failed with token ${SESSION}`)
    log.error('Authorization header', `Bearer ${SESSION}`)
    log.warn(`got ${JWT} back`)
    const err = new Error(`401 for ${SESSION}`)
    log.error('sign-in failed', err)
    log.error(new Error('outer', { cause: new Error(`inner ${JWT}`) }))
    log.warn('request', {
      url: `https://ams.example.com/api/v1/agents?token=${OAUTH}&page=2`,
      headers: { Authorization: `Bearer ${JWT}`, 'x-api-key': API_KEY, accept: 'json' },
      body: {
        email: 'me@example.com',
        password: PASSWORD,
        nested: { deeper: { secretValue: 'hunter2hunter2', note: SESSION } }
      },
      list: [{ token: API_KEY }, new Map([['apiKey', API_KEY]])]
    })
    log.warn(`body was {"email":"me@example.com","password":"${PASSWORD}"}`)
    log.warn(`cookie: sid=${API_KEY}; theme=dark`)
    log.error('url', new URL(`https://ams.example.com/cb?access_token=${OAUTH}`))
    log.info(`info is not written at all ${SESSION}`)

    const text = allLogs(dir)
    for (const secret of [SESSION, JWT, PASSWORD, API_KEY, OAUTH, 'hunter2hunter2', 'battery']) {
      expect(text).not.toContain(secret)
    }
    // What is kept is still useful.
    expect(text).toContain('request failed with token [redacted]')
    expect(text).toContain('Bearer [redacted]')
    expect(text).toContain('page=2')
    expect(text).toContain('me@example.com')
    expect(text).toContain('sign-in failed')
    expect(text).toContain('401 for [redacted]')
    expect(text).toMatch(/at .*log\.test\.ts/) // the stack is there, scrubbed
    expect(text).toContain('Caused by: Error: inner [redacted]')
    expect(text).toContain('theme=dark')
    expect(text).not.toContain('info is not written')
    expect(text).toMatch(/\[warn\]/)
    expect(text).toMatch(/\[error\]/)
  })

  it('rotates by size and keeps at most the given number of files', () => {
    const dir = temp()
    const log = createFileLog({ dir, maxSize: 2048, maxFiles: 3 })
    registerSecret(SESSION)
    for (let i = 0; i < 200; i++) log.warn(`line ${String(i).padStart(4, '0')} ${'x'.repeat(80)} ${SESSION}`)
    const files = readdirSync(dir).sort()
    expect(files).toEqual(['main.1.log', 'main.2.log', 'main.log'])
    for (const f of files) {
      const size = readFileSync(join(dir, f)).length
      expect(size).toBeLessThan(2048 + 200)
    }
    const text = allLogs(dir)
    expect(text).not.toContain(SESSION)
    // The newest lines are kept, the oldest went with the dropped files.
    expect(text).toContain('line 0199')
    expect(text).not.toContain('line 0000')
    expect(readFileSync(join(dir, 'main.1.log'), 'utf8') < readFileSync(join(dir, 'main.log'), 'utf8')).toBe(
      true
    )
  })

  it('defaults to 1 MiB and 5 files', () => {
    const dir = temp()
    const log = createFileLog({ dir })
    const line = 'y'.repeat(100 * 1024)
    for (let i = 0; i < 80; i++) log.warn(line)
    const files = readdirSync(dir).sort()
    expect(files).toEqual(['main.1.log', 'main.2.log', 'main.3.log', 'main.4.log', 'main.log'])
    // About 1 MiB each (electron-log counts the first line after a rotation twice: one line less).
    expect(readFileSync(join(dir, 'main.1.log')).length).toBeGreaterThan(1024 * 1024 - 110 * 1024)
    expect(readFileSync(join(dir, 'main.1.log')).length).toBeLessThan(1024 * 1024 + 110 * 1024)
  })

  it('takes console.warn and console.error, scrubbed, and the console still prints', () => {
    const dir = temp()
    const log = createFileLog({ dir })
    let printed = ''
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        printed += chunk.toString()
        done()
      }
    })
    const c = new Console({ stdout: sink, stderr: sink })
    const restore = captureConsole(log, c)
    c.warn('[agent-desk] no system keychain', { password: PASSWORD })
    c.error('[agent-desk] shutdown', new Error(`bad ${JWT}`))
    restore()
    c.error('after restore')
    expect(printed).toContain('no system keychain')
    const text = allLogs(dir)
    expect(text).toContain('[agent-desk] no system keychain')
    expect(text).toContain('[agent-desk] shutdown')
    expect(text).not.toContain(PASSWORD)
    expect(text).not.toContain(JWT)
    expect(text).not.toContain('after restore')
  })

  it('learns the session tokens the keychain stores and hands out', async () => {
    const dir = temp()
    const log = createFileLog({ dir })
    const inner = memoryKeychain()
    await inner.set('session:remote', 'stored-before-this-run-0123')
    const kc = registeringSecrets(inner)
    await kc.set('session:local', 'issued-in-this-run-4567')
    expect(await kc.get('session:remote')).toBe('stored-before-this-run-0123')
    log.error('tokens: issued-in-this-run-4567 stored-before-this-run-0123')
    const text = allLogs(dir)
    expect(text).not.toContain('issued-in-this-run-4567')
    expect(text).not.toContain('stored-before-this-run-0123')
    expect(kc.kind).toBe('memory')
  })
})

describe('redactText', () => {
  it('keeps ordinary text as it is', () => {
    const s = 'GET /api/v1/agents?page=2 answered 503 after 3 attempts (profile "Local workspace")'
    expect(redactText(s)).toBe(s)
  })
})
