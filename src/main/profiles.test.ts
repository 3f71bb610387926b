/**
 * profiles.json is written after each change, off main's event loop (profiles.ts): changes made
 * in a row all reach the file, a failed write is told by `saved()`, and the next one recovers.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ProfileRegistry } from './profiles'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'agent-desk-profiles-'))
  dirs.push(d)
  return d
}
const fileOf = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'profiles.json'), 'utf8')) as {
    localBaseUrl: string
    profiles: { id: string; name: string }[]
    capabilities: Record<string, Record<string, string>>
  }

describe('profiles.json', () => {
  it('a change returns before the file is written; every change made in a row is in it once saved', async () => {
    const dir = tempDir()
    const registry = new ProfileRegistry(dir)
    registry.setLocalBaseUrl('http://127.0.0.1:4001')
    // Not in the file yet: its write goes on as the event loop turns.
    expect(existsSync(join(dir, 'profiles.json'))).toBe(false)
    const profile = registry.saveRemote({ name: 'Work', baseUrl: 'https://ams.example.com' })
    for (let i = 0; i < 20; i++) registry.setCapability(profile?.id ?? '', `op.${i}`, 'offered')
    registry.setLocalBaseUrl('http://127.0.0.1:4002')
    await registry.saved()
    const file = fileOf(dir)
    expect(file.localBaseUrl).toBe('http://127.0.0.1:4002')
    expect(file.profiles.map((p) => p.name)).toEqual(['Work'])
    expect(Object.keys(file.capabilities[profile?.id ?? ''] ?? {})).toHaveLength(20)
    expect(statSync(join(dir, 'profiles.json')).mode & 0o777).toBe(0o600)
    // No temp file left behind, and a new registry reads it all back.
    expect(readdirSync(dir)).toEqual(['profiles.json'])
    expect(new ProfileRegistry(dir).capabilities(profile?.id ?? '')).toEqual(
      registry.capabilities(profile?.id ?? '')
    )
  })

  it('a write that fails is told by saved(); the next change writes everything, the failed change too', async () => {
    const dir = tempDir()
    const registry = new ProfileRegistry(dir)
    // A directory where the file goes: the rename fails.
    mkdirSync(join(dir, 'profiles.json'))
    const profile = registry.saveRemote({ name: 'Work', baseUrl: 'https://ams.example.com' })
    await expect(registry.saved()).rejects.toThrow()
    expect(readdirSync(dir)).toEqual(['profiles.json'])
    rmSync(join(dir, 'profiles.json'), { recursive: true })
    registry.setLocalBaseUrl('http://127.0.0.1:4003')
    await expect(registry.saved()).resolves.toBeUndefined()
    expect(fileOf(dir).profiles.map((p) => p.id)).toEqual([profile?.id])
    expect(fileOf(dir).localBaseUrl).toBe('http://127.0.0.1:4003')
  })
})
