/**
 * A list read again and answered with the same bytes (api/answerDigest.ts) is taken as stored by
 * the cache (offline/cache.ts): nothing is compared item by item. A row changed behind the cache's
 * back (another connection) shows which reads compared and which did not.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'libsql'
import { afterEach, describe, expect, it } from 'vitest'
import { coreAndService, coreOnService, type TestCore } from '../../test/support/mainCore'
import { withoutUsers } from '../../test/support/withoutUsers'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

/** Renames a cached tool in the cache file itself, as no part of the app would. */
function renameBehind(t: TestCore, id: string): void {
  const files = readdirSync(t.userDataDir, { recursive: true, encoding: 'utf8' })
  const file = files.find((f) => f.endsWith('.sqlite'))
  if (!file) throw new Error('no cache file')
  const db = new Database(join(t.userDataDir, file))
  const row = db.prepare('SELECT json FROM items WHERE resource = ? AND id = ?').raw(true).get('tools', id)
  const json = JSON.parse(String((row as unknown[])[0])) as Record<string, unknown>
  db.prepare('UPDATE items SET json = ? WHERE resource = ? AND id = ?').run(
    JSON.stringify({ ...json, name: 'Renamed behind' }),
    'tools',
    id
  )
  db.close()
}

describe('a list answered as before', () => {
  it('is taken as stored once found or written as given; any write to the resource or another answer compares again', async () => {
    const t = await coreOnService(cleanup, 's@a.me')
    const a = (await t.call('tools.create', { name: 'Alpha', type: 'SEARCH' })).data
    const b = (await t.call('tools.create', { name: 'Beta', type: 'SEARCH' })).data
    const cachedName = async (id: string) => (await t.call('tools.get', { id, cacheOnly: true })).data.name

    // The membership written, each row as the list gives it (stored so by the creates): remembered
    // already (until 2026-11-29 only a list that wrote nothing was, so the next one compared again).
    await t.call('tools.list')
    renameBehind(t, a.id)
    const same = await t.call('tools.list')
    // Not compared: answered with its rows as stored (read with the members, not written out again).
    expect(same.data.map((x) => x.name).sort()).toEqual(['Beta', 'Renamed behind'])
    expect(same.source).toBe('network')
    expect(await cachedName(a.id)).toBe('Renamed behind')

    // A write through the app forgets the answer, though the server's list stays the same (a read
    // of the other tool stores it): the next list compares and writes back.
    await t.call('tools.get', { id: b.id })
    await t.call('tools.list')
    expect(await cachedName(a.id)).toBe('Alpha')
    // An edit changes the answer itself.
    await t.call('tools.update', { id: b.id, patch: { name: 'Beta 2' } })
    renameBehind(t, a.id)
    await t.call('tools.list')
    expect(await cachedName(a.id)).toBe('Alpha')
    expect(await cachedName(b.id)).toBe('Beta 2')
  })
})

describe('a list from the cache', () => {
  it('leaves main as its rows’ JSON, as a list from the server does, online and offline', async () => {
    const { t, service } = await coreAndService(cleanup, 'c@a.me')
    await t.call('tools.create', { name: 'Alpha', type: 'SEARCH' })
    await t.call('tools.create', { name: 'Beta', type: 'SEARCH' })
    const listed = await t.call('tools.list')
    /** The items as the reply carries them: text that the preload parses, none parsed by main. */
    const asText = async (input: { cacheOnly?: boolean }) => {
      const raw = await t.core.invoke('tools.list', input)
      expect(raw).toMatchObject({ ok: true, value: { data: [], source: 'cache' } })
      return ((raw as { json?: string[] }).json ?? []).flatMap((p) => JSON.parse(p) as unknown[])
    }
    // (With the owner its items embed, which a list from the server leaves without: ownerless.ts.)
    expect(withoutUsers(await asText({ cacheOnly: true }))).toEqual(listed.data)
    // Offline (the server gone): the same, from the cache.
    await service.close()
    expect(withoutUsers(await asText({}))).toEqual(listed.data)
    const offline = await t.call('tools.list')
    expect(offline).toMatchObject({ source: 'cache', offline: true })
    expect(withoutUsers(offline.data)).toEqual(listed.data)
  })
})
