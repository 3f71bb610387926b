/** Drafts in the offline store's SQLite file: kept across opens, scrubbed, added to older files. */
import Database from 'libsql'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type TempStores, tempStores } from '../../../test/support/offlineStores'

let t: TempStores
beforeEach(() => {
  t = tempStores()
})
afterEach(() => t.cleanup())

describe('drafts store', () => {
  it('keeps, replaces and removes drafts across a close and reopen, without secret-looking keys', () => {
    const a = t.open()
    a.drafts.save('tool-edit:t1', {
      name: 'First',
      metadata: { apiToken: 'tok-secret-1', depth: { password: 'x' } }
    })
    a.drafts.save('tool-edit:t1', { name: 'Second', metadata: { apiToken: 'tok-secret-2' } })
    a.drafts.save('agent-create', { name: 'New agent' })
    expect(a.drafts.count()).toBe(2)
    a.close()

    const b = t.open()
    expect(b.drafts.list().map((d) => [d.key, d.value])).toEqual([
      ['agent-create', { name: 'New agent' }],
      ['tool-edit:t1', { name: 'Second', metadata: {} }]
    ])
    b.drafts.remove('agent-create')
    expect(b.drafts.count()).toBe(1)
    b.close()
    const raw = new Database(t.file, { readonly: true })
    expect(JSON.stringify(raw.prepare('SELECT * FROM drafts').all())).not.toContain('tok-secret')
    raw.close()
  })

  it('adds the drafts table to a file made before drafts, keeping its cache', () => {
    const a = t.open()
    a.cache.putItem('tools', { id: 't1', name: 'Cached' }, null)
    a.close()
    const raw = new Database(t.file)
    raw.exec('DROP TABLE drafts')
    raw.close()

    const b = t.open()
    expect(b.rebuilt).toBe(false)
    expect(b.cache.getItem('tools', 't1')?.value).toMatchObject({ name: 'Cached' })
    b.drafts.save('tool-edit:t1', { name: 'Draft' })
    expect(b.drafts.list()).toHaveLength(1)
  })
})
