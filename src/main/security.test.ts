import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  appUrlFor,
  CONTENT_SECURITY_POLICY,
  externalOpenDecision,
  isAppUrl,
  isTrustedSender,
  navigationDecision,
  permissionDecision,
  windowWebPreferences
} from './security'

describe('window web preferences', () => {
  it('isolates and sandboxes the renderer with no Node access', () => {
    const p = windowWebPreferences('/app/out/preload/index.cjs')
    expect(p).toEqual({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      spellcheck: true,
      disableBlinkFeatures: 'Auxclick',
      preload: '/app/out/preload/index.cjs'
    })
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
  const fileApp = appUrlFor('/opt/agent-desk/out/renderer/index.html')
  const devApp = appUrlFor('/opt/agent-desk/out/renderer/index.html', 'http://localhost:5173/')

  it('uses the dev server only when one is given', () => {
    expect(fileApp).toBe('file:///opt/agent-desk/out/renderer/index.html')
    expect(devApp).toBe('http://localhost:5173/')
    expect(appUrlFor('/x/index.html', 'javascript:alert(1)')).toBe('file:///x/index.html')
  })

  it('accepts the built page and its hash routes', () => {
    expect(isAppUrl('file:///opt/agent-desk/out/renderer/index.html#/agents/1', fileApp)).toBe(true)
    expect(isTrustedSender('file:///opt/agent-desk/out/renderer/index.html', fileApp)).toBe(true)
  })

  it('refuses other files, traversal, other origins and missing frames', () => {
    expect(isAppUrl('file:///etc/passwd', fileApp)).toBe(false)
    expect(isAppUrl('file:///opt/agent-desk/out/renderer/../../secret.html', fileApp)).toBe(false)
    expect(isAppUrl('file:///opt/agent-desk/out/renderer-evil/index.html', fileApp)).toBe(false)
    expect(isAppUrl('https://evil.example/index.html', fileApp)).toBe(false)
    expect(isTrustedSender(undefined, fileApp)).toBe(false)
    expect(isTrustedSender(null, fileApp)).toBe(false)
    expect(isTrustedSender('', fileApp)).toBe(false)
    expect(isTrustedSender('about:blank', fileApp)).toBe(false)
  })

  it('matches the dev server by origin', () => {
    expect(isTrustedSender('http://localhost:5173/#/agents', devApp)).toBe(true)
    expect(isTrustedSender('http://localhost:5174/', devApp)).toBe(false)
    expect(isTrustedSender('http://user:pw@localhost:5173/', devApp)).toBe(false)
    expect(isTrustedSender('file:///opt/agent-desk/out/renderer/index.html', devApp)).toBe(false)
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
})
