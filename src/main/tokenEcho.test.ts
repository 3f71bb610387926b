/**
 * A server (or proxy) that echoes the request's headers in its errors must not get the session
 * token into an IPC answer, an event, any SQLite file of the profile (WAL included) or the log:
 * the token is masked where the server's text enters (api/normalize.ts) and again where answers
 * and events leave main (core.ts). Real service, real proxy, real SQLite files, real log file.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startService } from '../service'
import { ECHO_SHAPES, startEchoingProxy } from '../../test/servers/echoingProxy'
import { testCore, tempDir, waitFor } from '../../test/support/mainCore'
import { createFileLog, registeringSecrets } from './desktop/log'
import { clearSecrets } from './desktop/redact'
import { memoryKeychain } from './keychain'
import type { OutboxEntry } from '../shared/ipc'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
  clearSecrets()
})

function filesUnder(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) out.push(...filesUnder(p))
    else out.push(p)
  }
  return out
}

describe('an echoing server cannot leak the session token', () => {
  it('keeps the token out of answers, events, outbox rows, SQLite files (WAL too) and the log', async () => {
    const svc = await startService({
      dataDir: tempDir('agent-desk-svc-'),
      port: 0,
      scryptCost: 16,
      logger: () => undefined
    })
    cleanup.push(() => svc.close())
    const proxy = await startEchoingProxy(svc.url)
    cleanup.push(() => proxy.close())
    const logDir = tempDir('agent-desk-log-')
    const fileLog = createFileLog({ dir: logDir, level: 'info' })
    const keychain = memoryKeychain()
    const t = testCore({
      keychain: registeringSecrets(keychain),
      log: (message, err) => fileLog.error(message, err)
    })
    cleanup.push(() => t.core.dispose())

    const profile = await t.call('profiles.save', { name: 'Echo', baseUrl: proxy.url })
    await t.call('session.signUp', {
      profileId: profile.id,
      email: 'e@b.co',
      password: 'password-1',
      name: 'Echo'
    })
    const token = await keychain.get(`session:${profile.id}`)
    expect(token && token.length).toBeGreaterThan(16)
    const secret = token as string

    // Online failures in every error shape: a missing item (the service's 404, echoed), a refused
    // write (422), and a 500 whose status text carries the header.
    const messages: string[] = []
    for (const shape of ECHO_SHAPES) {
      proxy.shape = shape
      messages.push((await t.fail('agents.get', { id: 'missing-agent' })).message)
    }
    proxy.mode = 'echo-writes'
    for (const [shape, status] of [
      ['envelope', 422],
      ['detail-list', 422],
      ['text', 500]
    ] as const) {
      proxy.shape = shape
      proxy.writeStatus = status
      const err = await t.fail('tools.create', { name: 'Echoed', type: 'OPENAPI' })
      messages.push(err.message, ...(err.fields ?? []).map((f) => f.message))
    }
    expect(messages.some((m) => m.includes('••••'))).toBe(true)

    // Offline: the write is queued; the server is back but refuses it on replay, echoing headers.
    proxy.mode = 'down'
    // The app sees the server gone (a read: its kept-alive sockets are dropped, nothing is written).
    expect((await t.call('session.reconnect')).online).toBe(false)
    const queued = await t.call('tools.create', { name: 'Offline tool', type: 'OPENAPI' })
    expect(queued.status).toBe('queued')
    proxy.shape = 'envelope'
    proxy.writeStatus = 422
    proxy.mode = 'echo-writes'
    let failed: OutboxEntry | undefined
    await waitFor(async () => {
      failed = (await t.call('outbox.list')).find((e) => e.status === 'failed')
      return failed !== undefined
    }, 15_000)
    expect(failed?.error?.message).toContain('••••')
    expect(
      t.events.some((e) => e.event === 'outbox.changed' && JSON.stringify(e.payload).includes('••••'))
    ).toBe(true)

    // The server really did send the token back, in status texts and bodies.
    expect(proxy.echoed.filter((e) => e.body.includes(secret) && e.statusText.includes(secret)).length).toBe(
      proxy.echoed.length
    )
    expect(proxy.echoed.length).toBeGreaterThanOrEqual(ECHO_SHAPES.length + 4)

    // No IPC answer, no event.
    expect(t.transcript.length).toBeGreaterThan(10)
    for (const line of t.transcript) expect(line).not.toContain(secret)

    // No byte of any file in the profile's folder: the cache database and its WAL included.
    const files = filesUnder(t.userDataDir)
    const wal = files.filter((f) => f.endsWith('.sqlite-wal'))
    expect(wal.length).toBeGreaterThan(0)
    expect(wal.some((f) => statSync(f).size > 0)).toBe(true)
    for (const f of files) expect(readFileSync(f).includes(secret), f).toBe(false)

    // No log line.
    fileLog.error('after the echoes')
    await waitFor(
      () => existsSync(fileLog.file) && readFileSync(fileLog.file, 'utf8').includes('after the echoes')
    )
    expect(readFileSync(fileLog.file, 'utf8')).not.toContain(secret)
  })
})
