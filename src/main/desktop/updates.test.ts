import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/support/tempDirs'
import { createDesktop } from './desktop'
import {
  checkFeed,
  checkFeedIfAllowed,
  feedFileName,
  policyFilePath,
  readAdminPolicy,
  startUpdateScheduler,
  updatePolicy,
  UpdateFeedError,
  type Timers
} from './updates'

/** A release feed on 127.0.0.1: serves the given files and counts every request. */
async function feedServer(
  files: Record<string, string>
): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = []
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '')
    const name = (req.url ?? '/').replace(/^\/feed\//, '')
    const body = files[name]
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' })
      res.end('not found')
      return
    }
    res.writeHead(200, { 'content-type': 'text/yaml' })
    res.end(body)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/feed`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r()))
  }
}

const LATEST = `version: 1.4.0
files:
  - url: Agent-Desk-Setup-1.4.0.exe
    sha512: abc
    size: 1234
path: Agent-Desk-Setup-1.4.0.exe
sha512: abc
releaseDate: '2026-11-20T10:00:00.000Z'
releaseNotes: |
  Settings page with an update switch.
  A log file that never holds a token.
`

const temp = () => tempDir('agent-desk-updates-')
const noPolicy = () => temp() // an empty folder: no policy.json
const feeds: { close(): Promise<void> }[] = []
afterEach(async () => {
  for (const f of feeds.splice(0)) await f.close()
})
async function serve(files: Record<string, string>) {
  const f = await feedServer(files)
  feeds.push(f)
  return f
}
const allFeeds = (text: string) => ({
  'latest.yml': text,
  'latest-mac.yml': text,
  'latest-linux.yml': text,
  'latest-linux-arm64.yml': text
})

describe('the release feed', () => {
  it('offers a newer version with its notes and date', async () => {
    const feed = await serve(allFeeds(LATEST))
    const r = await checkFeed({ baseUrl: feed.url, currentVersion: '1.3.9' })
    expect(r).toEqual({
      available: true,
      version: '1.4.0',
      releaseNotes: 'Settings page with an update switch.\nA log file that never holds a token.',
      releaseDate: '2026-11-20T10:00:00.000Z'
    })
    expect(feed.requests).toEqual([`/feed/${feedFileName()}`])
  })

  it('offers nothing for the same or an older version, and knows pre-releases come first', async () => {
    const feed = await serve(allFeeds(LATEST))
    expect((await checkFeed({ baseUrl: feed.url, currentVersion: '1.4.0' })).available).toBe(false)
    expect((await checkFeed({ baseUrl: feed.url, currentVersion: '2.0.0' })).available).toBe(false)
    expect((await checkFeed({ baseUrl: feed.url, currentVersion: '1.4.0-beta.2' })).available).toBe(true)
  })

  it('reads the file of each system', async () => {
    const feed = await serve({ 'latest-mac.yml': LATEST.replace('1.4.0', '1.5.0') })
    expect(feedFileName('darwin')).toBe('latest-mac.yml')
    expect(feedFileName('win32')).toBe('latest.yml')
    expect(feedFileName('linux', 'x64')).toBe('latest-linux.yml')
    const r = await checkFeed({ baseUrl: `${feed.url}/`, currentVersion: '1.0.0', platform: 'darwin' })
    expect(r.version).toBe('1.5.0')
    await expect(
      checkFeed({ baseUrl: feed.url, currentVersion: '1.0.0', platform: 'win32' })
    ).rejects.toThrow(/latest\.yml answered HTTP 404/)
  })

  it('joins release notes given per version', async () => {
    const feed = await serve(
      allFeeds(
        `version: 2.0.0\nreleaseNotes:\n  - version: 2.0.0\n    note: New things\n  - version: 1.9.0\n    note: Fixes\n`
      )
    )
    const r = await checkFeed({ baseUrl: feed.url, currentVersion: '1.0.0' })
    expect(r.releaseNotes).toBe('2.0.0\nNew things\n\n1.9.0\nFixes')
    expect(r.releaseDate).toBeNull()
  })

  it('says clearly when the feed is malformed', async () => {
    const feed = await serve({
      ...allFeeds('version: [1.4.0\nfiles: {'),
      'latest.yml': 'just a line of text'
    })
    const err = await checkFeed({ baseUrl: feed.url, currentVersion: '1.0.0', platform: 'linux' }).catch(
      (e: unknown) => e
    )
    expect(err).toBeInstanceOf(UpdateFeedError)
    expect(err).toMatchObject({ kind: 'malformed' })
    expect((err as Error).message).toMatch(
      /^The update feed http:\/\/127\.0\.0\.1:\d+\/feed\/latest-linux\.yml is not valid YAML: /
    )

    const notAnUpdate = await checkFeed({
      baseUrl: feed.url,
      currentVersion: '1.0.0',
      platform: 'win32'
    }).catch((e: unknown) => e)
    expect(notAnUpdate).toMatchObject({ kind: 'malformed' })
    expect((notAnUpdate as Error).message).toMatch(/latest\.yml is not an update description/)

    const badVersion = await serve(allFeeds('version: soon\n'))
    await expect(checkFeed({ baseUrl: badVersion.url, currentVersion: '1.0.0' })).rejects.toThrow(
      /is not an update description: version is not a semantic version/
    )
  })

  it('says clearly when the feed cannot be reached', async () => {
    const feed = await serve({})
    await feed.close()
    feeds.pop()
    const err = await checkFeed({ baseUrl: feed.url, currentVersion: '1.0.0' }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UpdateFeedError)
    expect(err).toMatchObject({ kind: 'unreachable' })
    expect((err as Error).message).toMatch(/cannot be reached/)
  })
})

describe('the update policy', () => {
  it('documents one policy file per system', () => {
    expect(policyFilePath('linux')).toBe('/etc/agent-desk/policy.json')
    expect(policyFilePath('darwin')).toBe('/Library/Application Support/Agent Desk/policy.json')
    expect(policyFilePath('win32', { ProgramData: 'D:\\Data' })).toBe('D:\\Data\\Agent Desk\\policy.json')
    expect(policyFilePath('win32', {})).toBe('C:\\ProgramData\\Agent Desk\\policy.json')
  })

  it('lets the administrator turn updates off by environment or policy file, over the user', () => {
    const dir = noPolicy()
    expect(readAdminPolicy({ env: {}, dir })).toEqual({ updatesOff: false, reason: null })
    const byEnv = readAdminPolicy({ env: { AGENT_DESK_UPDATES: 'off' }, dir })
    expect(byEnv.updatesOff).toBe(true)
    expect(byEnv.reason).toMatch(/AGENT_DESK_UPDATES=off/)

    writeFileSync(join(dir, 'policy.json'), JSON.stringify({ updates: 'off' }))
    const byFile = readAdminPolicy({ env: {}, dir })
    expect(byFile).toEqual({
      updatesOff: true,
      reason: `Turned off by your administrator (${join(dir, 'policy.json')}).`
    })
    expect(updatePolicy('on', byFile)).toMatchObject({ enabled: false, managed: true })

    writeFileSync(join(dir, 'policy.json'), JSON.stringify({ updates: 'on' }))
    expect(updatePolicy('on', readAdminPolicy({ env: {}, dir }))).toEqual({
      enabled: true,
      managed: false,
      reason: null
    })
    expect(updatePolicy('off', readAdminPolicy({ env: {}, dir }))).toMatchObject({
      enabled: false,
      managed: false
    })
  })

  it('turns updates off when the policy file exists but cannot be understood', () => {
    const dir = noPolicy()
    writeFileSync(join(dir, 'policy.json'), '{ updates: off')
    const p = readAdminPolicy({ env: {}, dir })
    expect(p.updatesOff).toBe(true)
    expect(p.reason).toMatch(/is not valid/)
    mkdirSync(join(dir, 'sub', 'policy.json'), { recursive: true })
    expect(readAdminPolicy({ env: {}, dir: join(dir, 'sub') }).updatesOff).toBe(true)
  })

  it('sends no request at all when the administrator turned updates off', async () => {
    const feed = await serve(allFeeds(LATEST))
    const dir = noPolicy()
    writeFileSync(join(dir, 'policy.json'), JSON.stringify({ updates: 'off' }))
    const policy = updatePolicy('on', readAdminPolicy({ env: {}, dir }))
    const r = await checkFeedIfAllowed(policy, { baseUrl: feed.url, currentVersion: '1.0.0' })
    expect(r).toMatchObject({ available: false, disabled: true })

    const envOff = updatePolicy(
      'on',
      readAdminPolicy({ env: { AGENT_DESK_UPDATES: 'off' }, dir: noPolicy() })
    )
    expect(await checkFeedIfAllowed(envOff, { baseUrl: feed.url, currentVersion: '1.0.0' })).toMatchObject({
      disabled: true
    })

    // The same through "Check for updates" and the scheduler.
    const userData = temp()
    const desktop = createDesktop({
      userDataDir: userData,
      version: '1.0.0',
      env: { AGENT_DESK_UPDATE_URL: feed.url },
      policyDir: dir
    })
    expect(await desktop.checkForUpdates()).toMatchObject({
      state: 'disabled',
      message: expect.stringMatching(/administrator/)
    })
    expect(desktop.state()).toMatchObject({ managed: { updates: true }, updatesEnabled: false })
    expect(() => desktop.set({ updates: 'off' })).toThrow(/managed by your administrator/)
    const timers = fakeTimers()
    const s = startUpdateScheduler({
      enabled: () => desktop.policy().enabled,
      check: () => desktop.checkForUpdates(),
      timers
    })
    expect(s.running).toBe(false)
    expect(timers.active()).toBe(0)
    expect(feed.requests).toEqual([])
  })

  it('checks nothing when the user turned updates off and the administrator did not decide', async () => {
    const feed = await serve(allFeeds(LATEST))
    const desktop = createDesktop({
      userDataDir: temp(),
      version: '1.0.0',
      env: { AGENT_DESK_UPDATE_URL: feed.url },
      policyDir: noPolicy()
    })
    expect(await desktop.checkForUpdates()).toMatchObject({ state: 'available', version: '1.4.0' })
    expect(feed.requests).toHaveLength(1)
    desktop.set({ updates: 'off' })
    expect(await desktop.checkForUpdates()).toMatchObject({
      state: 'disabled',
      message: 'Turned off in Settings.'
    })
    expect(feed.requests).toHaveLength(1)

    // An administrator's "on" does not force updates on against the user.
    const dir = noPolicy()
    writeFileSync(join(dir, 'policy.json'), JSON.stringify({ updates: 'on' }))
    const managedOn = createDesktop({
      userDataDir: temp(),
      version: '1.0.0',
      env: { AGENT_DESK_UPDATE_URL: feed.url },
      policyDir: dir
    })
    managedOn.set({ updates: 'off' })
    expect(await managedOn.checkForUpdates()).toMatchObject({ state: 'disabled' })
    expect(feed.requests).toHaveLength(1)
  })

  it('reports an up-to-date app, a broken feed and a build without a feed', async () => {
    const feed = await serve(allFeeds('version: 1.0.0\n'))
    const bad = await serve(allFeeds(': : :\n  - ['))
    const mk = (url?: string) =>
      createDesktop({
        userDataDir: temp(),
        version: '1.0.0',
        env: url ? { AGENT_DESK_UPDATE_URL: url } : {},
        policyDir: noPolicy()
      })
    expect(await mk(feed.url).checkForUpdates()).toMatchObject({
      state: 'current',
      message: 'Agent Desk 1.0.0 is up to date.'
    })
    expect(await mk(bad.url).checkForUpdates()).toMatchObject({
      state: 'error',
      message: expect.stringMatching(/not valid YAML/)
    })
    expect(await mk().checkForUpdates()).toMatchObject({ state: 'unconfigured' })
  })
})

function fakeTimers(): Timers & { active(): number; fire(): void; unrefs: number } {
  const live = new Map<number, () => void>()
  let next = 1
  const t = {
    unrefs: 0,
    setInterval(fn: () => void) {
      const id = next++
      live.set(id, fn)
      return {
        id,
        unref: () => {
          t.unrefs++
        }
      }
    },
    clearInterval(h: { unref?: () => unknown }) {
      live.delete((h as { id: number }).id)
    },
    active: () => live.size,
    fire: () => {
      for (const fn of [...live.values()]) fn()
    }
  }
  return t
}

describe('the update scheduler', () => {
  it('checks at start and then on every interval, with an unref’d timer', () => {
    const timers = fakeTimers()
    let checks = 0
    const s = startUpdateScheduler({ enabled: () => true, check: async () => void checks++, timers })
    expect(checks).toBe(1)
    expect(timers.unrefs).toBe(1)
    timers.fire()
    timers.fire()
    expect(checks).toBe(3)
    s.stop()
    expect(timers.active()).toBe(0)
  })

  it('has no timer while updates are off and starts when they are turned on', () => {
    const timers = fakeTimers()
    let on = false
    let checks = 0
    const s = startUpdateScheduler({ enabled: () => on, check: async () => void checks++, timers })
    expect([checks, timers.active(), s.running]).toEqual([0, 0, false])
    on = true
    s.refresh()
    expect([checks, timers.active(), s.running]).toEqual([1, 1, true])
    s.refresh() // no second timer, no extra check
    expect([checks, timers.active()]).toEqual([1, 1])
    on = false
    timers.fire() // a tick after the switch went off checks nothing
    s.refresh()
    expect([checks, timers.active(), s.running]).toEqual([1, 0, false])
  })

  it('runs on real timers against a real feed, and a failing check does not stop it', async () => {
    const feed = await serve(allFeeds(LATEST))
    const errors: unknown[] = []
    let ok = 0
    let calls = 0
    const s = startUpdateScheduler({
      enabled: () => true,
      intervalMs: 25,
      check: async () => {
        if (++calls === 2) throw new Error('boom')
        await checkFeed({ baseUrl: feed.url, currentVersion: '1.0.0' })
        ok++
      },
      onError: (e) => errors.push(e)
    })
    const start = Date.now()
    while (ok < 2 && Date.now() - start < 5000) await new Promise((r) => setTimeout(r, 10))
    s.stop()
    expect(ok).toBeGreaterThanOrEqual(2)
    expect(errors).toHaveLength(1)
  })
})

describe('release notes', () => {
  it('become plain text, from HTML (GitHub) or per version', async () => {
    const { releaseNotesText } = await import('./updates')
    expect(releaseNotesText('<h2>New</h2><ul><li>Settings &amp; updates</li><li>Log file</li></ul>')).toBe(
      'New\n• Settings & updates\n• Log file'
    )
    expect(
      releaseNotesText([
        { version: '2.0.0', note: '<p>Big</p>' },
        { version: '1.9.0', note: null }
      ])
    ).toBe('2.0.0\nBig')
    expect(releaseNotesText(null)).toBeNull()
  })
})
