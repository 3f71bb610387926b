/**
 * resources/scripts/merge-mac-feed.mjs: the release's two per-architecture latest-mac.yml files
 * become one. The inputs are written by electron-builder's own YAML writer (builder-util
 * serializeToYaml, what app-builder-lib uses for the feeds) and the output is read back with js-yaml.
 */
import { execFileSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { serializeToYaml } from 'builder-util'
import { load } from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { mergeMacFeeds } from '../../resources/scripts/merge-mac-feed.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))

function feed(version: string, arch: 'arm64' | 'x64'): string {
  const zip = `agent-desk-${version}-mac-${arch}.zip`
  return serializeToYaml(
    {
      version,
      files: [
        { url: zip, sha512: `${arch}-zip-sha`, size: 101, blockMapSize: 7 },
        { url: `agent-desk-${version}-mac-${arch}.dmg`, sha512: `${arch}-dmg-sha`, size: 202 }
      ],
      path: zip,
      sha512: `${arch}-zip-sha`,
      releaseDate: '2026-11-23T10:00:00.000Z'
    },
    false,
    true
  )
}

describe('merge-mac-feed', () => {
  it('lists the files of both architectures once, keeping the first feed’s top-level fields', () => {
    const merged = load(
      mergeMacFeeds([
        { label: 'arm64', text: feed('1.2.3', 'arm64') },
        { label: 'x64', text: feed('1.2.3', 'x64') }
      ])
    )
    expect(merged).toEqual({
      version: '1.2.3',
      files: [
        { url: 'agent-desk-1.2.3-mac-arm64.zip', sha512: 'arm64-zip-sha', size: 101, blockMapSize: 7 },
        { url: 'agent-desk-1.2.3-mac-arm64.dmg', sha512: 'arm64-dmg-sha', size: 202 },
        { url: 'agent-desk-1.2.3-mac-x64.zip', sha512: 'x64-zip-sha', size: 101, blockMapSize: 7 },
        { url: 'agent-desk-1.2.3-mac-x64.dmg', sha512: 'x64-dmg-sha', size: 202 }
      ],
      path: 'agent-desk-1.2.3-mac-arm64.zip',
      sha512: 'arm64-zip-sha',
      releaseDate: '2026-11-23T10:00:00.000Z'
    })
  })

  it('is idempotent: merging a feed with itself changes nothing', () => {
    const one = feed('1.2.3', 'arm64')
    expect(
      mergeMacFeeds([
        { label: 'a', text: one },
        { label: 'b', text: one }
      ])
    ).toBe(one)
  })

  it('refuses feeds of different versions and files it does not understand, naming the file', () => {
    expect(() =>
      mergeMacFeeds([
        { label: 'arm64/latest-mac.yml', text: feed('1.2.3', 'arm64') },
        { label: 'x64/latest-mac.yml', text: feed('1.2.4', 'x64') }
      ])
    ).toThrow(/x64\/latest-mac\.yml: version 1\.2\.4 differs/)
    expect(() => mergeMacFeeds([{ label: 'odd.yml', text: 'version: 1\nfiles: []\n' }])).toThrow(/odd\.yml/)
    expect(() => mergeMacFeeds([])).toThrow(/no feeds/)
  })

  it('works as the command the release workflow runs', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agent-desk-feed-'))
    try {
      await writeFile(join(dir, 'a.yml'), feed('2.0.0', 'arm64'))
      await writeFile(join(dir, 'b.yml'), feed('2.0.0', 'x64'))
      const script = join(root, 'resources/scripts/merge-mac-feed.mjs')
      const out = execFileSync(process.execPath, [script, join(dir, 'a.yml'), join(dir, 'b.yml')], {
        encoding: 'utf8'
      })
      const files = (load(out) as { files: { url: string }[] }).files.map((f) => f.url)
      expect(files).toHaveLength(4)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
