import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  APP_SCHEME_PRIVILEGES,
  appFileFor,
  appUrlFor,
  CONTENT_SECURITY_POLICY,
  devServerDecision,
  devToolsAllowed,
  externalOpenDecision,
  isLoopbackHost,
  isAppUrl,
  isTrustedSender,
  navigationDecision,
  permissionDecision,
  windowWebPreferences
} from './security'

describe('window web preferences', () => {
  it('isolates and sandboxes the renderer with no Node access', () => {
    // Exactly these switches, each on or off as listed (no other key may appear).
    const on = ['contextIsolation', 'sandbox', 'webSecurity', 'spellcheck']
    const off = [
      'nodeIntegration',
      'nodeIntegrationInWorker',
      'nodeIntegrationInSubFrames',
      'allowRunningInsecureContent',
      'webviewTag',
      'experimentalFeatures',
      'devTools'
    ]
    expect(windowWebPreferences('/app/out/preload/index.cjs')).toEqual({
      ...Object.fromEntries(on.map((k) => [k, true])),
      ...Object.fromEntries(off.map((k) => [k, false])),
      disableBlinkFeatures: 'Auxclick',
      preload: '/app/out/preload/index.cjs'
    })
    expect(windowWebPreferences('/p.cjs', { devTools: true }).devTools).toBe(true)
  })

  it('DevTools: open from a checkout; in an installed app only with AGENT_DESK_DEVTOOLS=1', () => {
    expect(devToolsAllowed({ packaged: false }, {})).toBe(true)
    expect(devToolsAllowed({ packaged: true }, {})).toBe(false)
    expect(devToolsAllowed({ packaged: true }, { AGENT_DESK_DEVTOOLS: '0' })).toBe(false)
    expect(devToolsAllowed({ packaged: true }, { AGENT_DESK_DEVTOOLS: 'yes' })).toBe(false)
    expect(devToolsAllowed({ packaged: true }, { AGENT_DESK_DEVTOOLS: '1' })).toBe(true)
  })
})

describe('the renderer dev server (ELECTRON_RENDERER_URL) is a development switch', () => {
  const dev = { devBuild: true, packaged: false }

  it('is honoured by a development build for a loopback http address', () => {
    expect(devServerDecision('http://localhost:5173/', dev)).toEqual({ url: 'http://localhost:5173/' })
    expect(devServerDecision('http://127.0.0.1:5173', dev)).toEqual({ url: 'http://127.0.0.1:5173/' })
    expect(devServerDecision('http://127.8.9.10:80/', dev)).toEqual({ url: 'http://127.8.9.10/' })
    expect(devServerDecision('http://[::1]:5173/', dev)).toEqual({ url: 'http://[::1]:5173/' })
    expect(devServerDecision(undefined, dev)).toEqual({})
    expect(devServerDecision('', dev)).toEqual({})
  })

  it('is ignored, with a warning, by a production or packaged build', () => {
    for (const build of [
      { devBuild: false, packaged: false },
      { devBuild: true, packaged: true },
      { devBuild: false, packaged: true }
    ]) {
      const d = devServerDecision('http://localhost:5173/', build)
      expect(d.url).toBeUndefined()
      expect(d.warning).toMatch(/only a development build/)
    }
  })

  it('is ignored, with a warning, for anything but a loopback http address', () => {
    for (const raw of [
      'https://localhost:5173/',
      'http://evil.example:5173/',
      'http://192.168.1.10:5173/',
      'http://10.0.0.1/',
      'http://0.0.0.0:5173/',
      'http://128.0.0.1/',
      'http://localhost.evil.example/',
      'http://127.0.0.1.nip.io/',
      'http://user:pw@localhost:5173/',
      'http://[::ffff:8.8.8.8]/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'not a url'
    ]) {
      const d = devServerDecision(raw, dev)
      expect(d.url, raw).toBeUndefined()
      expect(d.warning, raw).toMatch(/plain http:\/\/ address on this computer/)
      // And should the value reach appUrlFor some other way, it is not loaded nor trusted.
      expect(appUrlFor(raw)).toBe('agent-desk://app/index.html')
      expect(isTrustedSender(raw, raw)).toBe(false)
    }
  })

  it('knows loopback hosts', () => {
    for (const h of ['localhost', 'LOCALHOST', 'app.localhost', '127.0.0.1', '127.255.255.254', '[::1]']) {
      expect(isLoopbackHost(h), h).toBe(true)
    }
    for (const h of ['localhost.example', '127.0.0.1.example', '128.0.0.1', '0.0.0.0', '::1', '[::2]', '']) {
      expect(isLoopbackHost(h), h).toBe(false)
    }
  })
})

describe('content security policy', () => {
  it('is the same policy as the renderer page meta tag, without unsafe-eval', () => {
    const html = readFileSync(join(process.cwd(), 'src/renderer/index.html'), 'utf8')
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)
    expect(meta?.[1]).toBe(CONTENT_SECURITY_POLICY)
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval')
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'")
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'")
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'")
  })
})

describe('app URL and IPC sender checks', () => {
  const app = appUrlFor()
  const devApp = appUrlFor('http://localhost:5173/')

  it('serves the built page on the app scheme, the dev server only when one is given', () => {
    expect(app).toBe('agent-desk://app/index.html')
    expect(devApp).toBe('http://localhost:5173/')
    expect(appUrlFor('javascript:alert(1)')).toBe(app)
    expect(appUrlFor('file:///etc/passwd')).toBe(app)
    // Standard and secure (its own origin, storage, 'self' in the CSP), code cache on; it does
    // not bypass the CSP nor answer other origins.
    expect(APP_SCHEME_PRIVILEGES).toEqual({
      standard: true,
      secure: true,
      supportFetchAPI: true,
      codeCache: true
    })
  })

  it('accepts the built page and its hash routes', () => {
    expect(isAppUrl('agent-desk://app/index.html#/agents/1', app)).toBe(true)
    expect(isTrustedSender('agent-desk://app/index.html', app)).toBe(true)
    expect(isTrustedSender('agent-desk://app/', app)).toBe(true)
  })

  it('refuses files, other hosts of the scheme, other origins and missing frames', () => {
    expect(isAppUrl('file:///opt/agent-desk/out/renderer/index.html', app)).toBe(false)
    expect(isAppUrl('file:///etc/passwd', app)).toBe(false)
    expect(isAppUrl('agent-desk://evil/index.html', app)).toBe(false)
    expect(isAppUrl('agent-desk://user:pw@app/index.html', app)).toBe(false)
    expect(isAppUrl('https://evil.example/index.html', app)).toBe(false)
    expect(isTrustedSender(undefined, app)).toBe(false)
    expect(isTrustedSender(null, app)).toBe(false)
    expect(isTrustedSender('', app)).toBe(false)
    expect(isTrustedSender('about:blank', app)).toBe(false)
  })

  it('matches the dev server by origin', () => {
    expect(isTrustedSender('http://localhost:5173/#/agents', devApp)).toBe(true)
    expect(isTrustedSender('http://localhost:5174/', devApp)).toBe(false)
    expect(isTrustedSender('http://user:pw@localhost:5173/', devApp)).toBe(false)
    expect(isTrustedSender('agent-desk://app/index.html', devApp)).toBe(false)
  })
})

describe('the app scheme serves the renderer folder and nothing else', () => {
  const dir = join(tmpdir(), 'agent-desk-renderer')

  it('maps paths inside the folder, / to index.html, without query or hash', () => {
    expect(appFileFor('agent-desk://app/index.html', dir)).toBe(join(dir, 'index.html'))
    expect(appFileFor('agent-desk://app/', dir)).toBe(join(dir, 'index.html'))
    expect(appFileFor('agent-desk://app/assets/index-abc.js?v=1#x', dir)).toBe(
      join(dir, 'assets/index-abc.js')
    )
    expect(appFileFor('agent-desk://app/assets/a%20b.png', dir)).toBe(join(dir, 'assets/a b.png'))
  })

  it('refuses traversal, encoded or not, other hosts and schemes, and undecodable paths', () => {
    for (const url of [
      'agent-desk://app/../secret.txt',
      'agent-desk://app/%2e%2e/secret.txt',
      'agent-desk://app/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      'agent-desk://app/..%2fsecret.txt',
      'agent-desk://app/%2Fetc%2Fpasswd/../../..',
      'agent-desk://app/%E0%A4%A',
      'agent-desk://app/a%00b.js',
      'agent-desk://other/index.html',
      'agent-desk://user@app/index.html',
      'file:///etc/passwd',
      'https://app/index.html',
      'not a url'
    ]) {
      // Whatever the URL parser makes of the dots, nothing outside the folder is ever named.
      const file = appFileFor(url, dir)
      expect(file === null || file.startsWith(dir + sep)).toBe(true)
    }
    // The URL parser resolves dot segments (also %2e%2e) at the root: they stay in the folder.
    expect(appFileFor('agent-desk://app/%2e%2e/secret.txt', dir)).toBe(join(dir, 'secret.txt'))
    // Encoded slashes are decoded after parsing: what would leave the folder is refused.
    expect(appFileFor('agent-desk://app/assets/..%2f..%2fsecret.txt', dir)).toBeNull()
    expect(appFileFor('agent-desk://app/..%2fsecret.txt', dir)).toBeNull()
    expect(appFileFor('agent-desk://app/%E0%A4%A', dir)).toBeNull()
    expect(appFileFor('agent-desk://app/a%00b.js', dir)).toBeNull()
    expect(appFileFor('agent-desk://other/index.html', dir)).toBeNull()
    expect(appFileFor('agent-desk://user@app/index.html', dir)).toBeNull()
    expect(appFileFor('file:///etc/passwd', dir)).toBeNull()
    expect(appFileFor('not a url', dir)).toBeNull()
  })
})

describe('external links', () => {
  it('opens plain http(s) addresses only', () => {
    expect(externalOpenDecision('https://docs.example.com/a?b=1#c')).toEqual({
      allow: true,
      url: 'https://docs.example.com/a?b=1#c'
    })
    expect(externalOpenDecision('http://example.com').allow).toBe(true)
  })

  it.each([
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'file:///etc/passwd',
    'smb://host/share',
    'vscode://extension/x',
    'data:text/html,<script>alert(1)</script>',
    'https://user:secret@example.com/',
    'not a url',
    '',
    '//example.com'
  ])('refuses %s', (url) => {
    expect(externalOpenDecision(url).allow).toBe(false)
  })

  it('refuses missing and huge inputs', () => {
    expect(externalOpenDecision(undefined).allow).toBe(false)
    expect(externalOpenDecision(`https://example.com/${'a'.repeat(5000)}`).allow).toBe(false)
  })
})

describe('navigation and permissions', () => {
  it('never lets the window navigate, and hands web links to the browser', () => {
    expect(navigationDecision('https://example.com/').allow).toBe(false)
    expect(navigationDecision('https://example.com/').openExternal.allow).toBe(true)
    expect(navigationDecision('file:///etc/passwd').allow).toBe(false)
    expect(navigationDecision('file:///etc/passwd').openExternal.allow).toBe(false)
  })

  it.each([
    'media',
    'geolocation',
    'notifications',
    'clipboard-read',
    'openExternal',
    'fullscreen',
    'unknown'
  ])('denies the %s permission', (permission) => {
    expect(permissionDecision(permission)).toBe(false)
  })

  it('allows writing to the clipboard on a click (the Copy buttons), not reading it', () => {
    expect(permissionDecision('clipboard-sanitized-write')).toBe(true)
    expect(permissionDecision('clipboard-read')).toBe(false)
    expect(permissionDecision('deprecated-sync-clipboard-read')).toBe(false)
  })
})
