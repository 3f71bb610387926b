/**
 * The app scheme's file mapping against a real folder with real symbolic links: only regular
 * files whose real path lies inside the real renderer folder are served.
 */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../test/support/mainCore'
import { resolveAppFile } from './security'

const url = (path: string) => `agent-desk://app${path}`

function layout() {
  const base = realpathSync(tempDir('agent-desk-scheme-'))
  const renderer = join(base, 'renderer')
  const outside = join(base, 'outside')
  mkdirSync(join(renderer, 'assets'), { recursive: true })
  mkdirSync(outside)
  writeFileSync(join(renderer, 'index.html'), '<!doctype html>')
  writeFileSync(join(renderer, 'assets', 'app.js'), 'console.log(1)')
  writeFileSync(join(outside, 'secret.txt'), 'secret')
  // Links out of the folder: to a file, and to a folder.
  symlinkSync(join(outside, 'secret.txt'), join(renderer, 'leak.txt'))
  symlinkSync(outside, join(renderer, 'assets', 'linked'))
  // A link that stays inside (served: its target is a file of the folder).
  symlinkSync(join(renderer, 'assets', 'app.js'), join(renderer, 'alias.js'))
  // A sibling whose name starts like the folder's.
  mkdirSync(`${renderer}-evil`)
  writeFileSync(join(`${renderer}-evil`, 'x.js'), 'evil')
  symlinkSync(join(`${renderer}-evil`, 'x.js'), join(renderer, 'evil.js'))
  return { base, renderer, outside }
}

describe('resolveAppFile', () => {
  it('serves regular files of the folder, through links that stay inside', () => {
    const { renderer } = layout()
    expect(resolveAppFile(url('/'), renderer)).toBe(join(renderer, 'index.html'))
    expect(resolveAppFile(url('/assets/app.js?v=2'), renderer)).toBe(join(renderer, 'assets', 'app.js'))
    expect(resolveAppFile(url('/alias.js'), renderer)).toBe(join(renderer, 'assets', 'app.js'))
  })

  it('refuses links pointing out of the folder, folders and missing files', () => {
    const { renderer } = layout()
    expect(resolveAppFile(url('/leak.txt'), renderer)).toBeNull()
    expect(resolveAppFile(url('/assets/linked/secret.txt'), renderer)).toBeNull()
    expect(resolveAppFile(url('/evil.js'), renderer)).toBeNull()
    expect(resolveAppFile(url('/assets'), renderer)).toBeNull()
    expect(resolveAppFile(url('/assets/'), renderer)).toBeNull()
    expect(resolveAppFile(url('/assets/linked'), renderer)).toBeNull()
    expect(resolveAppFile(url('/missing.js'), renderer)).toBeNull()
    expect(resolveAppFile(url('/..%2fsecret.txt'), renderer)).toBeNull()
  })

  it('serves the real folder when it is reached through a link', () => {
    const { base, renderer } = layout()
    const viaLink = join(base, 'current')
    symlinkSync(renderer, viaLink)
    expect(resolveAppFile(url('/index.html'), viaLink)).toBe(join(renderer, 'index.html'))
    expect(resolveAppFile(url('/leak.txt'), viaLink)).toBeNull()
  })
})
