/**
 * Long lists of every table of user-owned rows (`ownedTable`, sql.ts): the whole list, and a page
 * longer than SENT_WHOLE, are sent as their rows are read (reads.ts), the same lists as their pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyRows } from '../../test/support/copyRows'
import { signUp, startTestServer, type TestServer } from '../../test/support/serviceKit'
import { WHOLE_CHARS } from './http'
import { SENT_WHOLE } from './reads'

let srv: TestServer
beforeAll(async () => {
  srv = await startTestServer()
})
afterAll(async () => {
  await srv.stop()
})

/** Each resource: its path, its table, and one item to create (copied in SQL past WHOLE_CHARS). */
const RESOURCES = [
  ['/documents', 'documents', { name: 'd'.repeat(200), type: 'TXT', url: 'https://example.com/d' }],
  ['/tools', 'tools', { name: 'Search', type: 'SEARCH', description: 't'.repeat(900), metadata: { k: 1 } }],
  [
    '/prompts',
    'prompts',
    { name: 'Prompt', template: 'Hello {name} '.repeat(60), input_variables: ['name'] }
  ],
  ['/tags', 'tags', { name: 'tag', color: '#3366FF' }], // and its owner's id
  ['/api-tokens', 'api_tokens', { description: 'a'.repeat(400) }]
] as const

/** Copies of the owner's one row of `table` until its list passes WHOLE_CHARS (copyRows); how many rows. */
function copies(table: string, seedId: string, rowChars: number): number {
  const count = Math.ceil(WHOLE_CHARS / rowChars) + 10
  copyRows(srv.dataDir, table, seedId, count)
  return count + 1
}

describe('a long list of user-owned rows', () => {
  it.each(RESOURCES)(
    '%s: sent in chunks as its rows are read, the same list as its pages',
    async (path, table, body) => {
      const me = await signUp(srv.base, `Long ${table}`)
      const created = await me.api.post(path, table === 'tags' ? { ...body, userId: me.userId } : body)
      expect(created.status).toBe(200)
      const seed = created.data as { id: string }
      const count = copies(table, seed.id, JSON.stringify(seed).length)
      const whole = await me.api.get(path)
      expect(whole.status).toBe(200)
      expect(whole.headers.get('transfer-encoding')).toBe('chunked')
      expect(whole.headers.get('content-length')).toBeNull()
      expect(whole.text.length).toBeGreaterThan(WHOLE_CHARS)
      const pages: unknown[] = []
      for (let skip = 0; ; skip += 2000) {
        const page = (await me.api.get(`${path}?skip=${skip}&take=2000`)).data as unknown[]
        if (!page.length) break
        pages.push(...page)
      }
      expect(pages).toHaveLength(count)
      expect(whole.data).toEqual(pages)
      // A page longer than SENT_WHOLE from its end (read as it is sent), and one past its end.
      expect((await me.api.get(`${path}?skip=${count - 7}&take=${SENT_WHOLE + 1}`)).data).toEqual(
        pages.slice(count - 7)
      )
      expect((await me.api.get(`${path}?skip=${count}&take=${SENT_WHOLE + 1}`)).data).toEqual([])
    }
  )
})
