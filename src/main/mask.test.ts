import { afterAll, describe, expect, it } from 'vitest'
import { tempStores } from '../../test/support/offlineStores'
import { isChecked, markChecked, MASK, MASK_STEP, maskSecrets, maskSecretsInSteps } from './mask'
import { ComingListText, ListText } from './offline/listText'

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.session-token-value'

/** A long list: every 777th item holds the token somewhere (a value, deep, or a key). */
function longList(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    id: `a${i}`,
    name: `Agent ${i}`,
    description: i % 777 === 0 ? `echo: Bearer ${TOKEN}` : 'plain',
    tags: i % 1554 === 1 ? [{ id: 't', name: TOKEN }] : [],
    ...(i % 2331 === 2 ? { [`k-${TOKEN}`]: 1 } : {})
  }))
}

describe('maskSecretsInSteps', () => {
  it('masks a long list like maskSecrets does, an array or a read holding one', async () => {
    const items = longList(5 * MASK_STEP + 3)
    const read = { data: items, source: 'network', syncedAt: null, offline: false, note: `x ${TOKEN}` }
    for (const value of [items, read]) {
      const stepped = await maskSecretsInSteps(value, [TOKEN])
      expect(stepped).toEqual(maskSecrets(value, [TOKEN]))
      expect(JSON.stringify(stepped)).not.toContain(TOKEN)
      expect(JSON.stringify(stepped)).toContain(MASK)
    }
    // The input is left as it was.
    expect(JSON.stringify(items)).toContain(TOKEN)
  })

  it('gives the same value back when nothing is masked', async () => {
    const items = longList(3 * MASK_STEP).map((x) => ({ id: x.id, name: x.name }))
    const read = { data: items, offline: false }
    expect(await maskSecretsInSteps(items, [TOKEN])).toBe(items)
    expect(await maskSecretsInSteps(read, [TOKEN])).toBe(read)
    expect(await maskSecretsInSteps(read, [])).toBe(read)
  })

  it('lets the event loop run between steps of a long list, not for a short one', async () => {
    let turns = 0
    let on = true
    const tick = () => {
      turns++
      if (on) setImmediate(tick)
    }
    setImmediate(tick)
    await maskSecretsInSteps(longList(10 * MASK_STEP), [TOKEN])
    const during = turns
    on = false
    expect(during).toBeGreaterThanOrEqual(9)

    let yields = 0
    const count = async () => {
      yields++
    }
    await maskSecretsInSteps(longList(MASK_STEP), [TOKEN], count)
    expect(yields).toBe(0)
    await maskSecretsInSteps({ data: longList(4 * MASK_STEP + 1) }, [TOKEN], count)
    expect(yields).toBe(4)
  })
})

describe('items checked already', () => {
  it('are not walked again for the secrets they were checked for, and are for any other', async () => {
    // An item marked although it holds the token shows which items a walk enters: a marked item
    // is never such a one (api/transport.ts marks only items of text that cannot hold the token).
    const items = longList(3 * MASK_STEP)
    const marked = items[0] as Record<string, unknown>
    expect(JSON.stringify(marked)).toContain(TOKEN)
    markChecked([marked], [TOKEN])
    expect(isChecked(marked, [TOKEN])).toBe(true)
    expect(isChecked(marked, ['another-secret-value'])).toBe(false)
    expect(isChecked({ ...marked }, [TOKEN])).toBe(false)

    for (const masked of [maskSecrets(items, [TOKEN]), await maskSecretsInSteps({ data: items }, [TOKEN])]) {
      const list = (Array.isArray(masked) ? masked : (masked as { data: unknown[] }).data) as unknown[]
      expect(list[0]).toBe(marked)
      expect(JSON.stringify(list.slice(1))).not.toContain(TOKEN)
    }
    // Checked for one token, walked for another (a new session).
    const other = 'x'.repeat(12) + TOKEN
    const again = maskSecrets(items, [other, TOKEN]) as unknown[]
    expect(JSON.stringify(again)).not.toContain(TOKEN)
  })

  it('marks only the object itself: no copy of it carries the mark, and JSON and its keys do not show it', () => {
    const item = { id: 'a', name: 'Agent', tags: [{ id: 't' }] }
    markChecked([item], [TOKEN])
    expect(isChecked(item, [TOKEN])).toBe(true)
    // An object made from a marked one may have gained a secret: it must be walked.
    const copies = [
      { ...item },
      Object.assign({}, item),
      structuredClone(item),
      JSON.parse(JSON.stringify(item))
    ]
    expect(copies.map((c) => isChecked(c, [TOKEN]))).toEqual([false, false, false, false])
    expect(JSON.stringify(item)).toBe('{"id":"a","name":"Agent","tags":[{"id":"t"}]}')
    expect(Object.keys(item)).toEqual(['id', 'name', 'tags'])
    // Marked again for other secrets (a new session), it answers for those.
    markChecked(item, ['another-secret-value'])
    expect([isChecked(item, [TOKEN]), isChecked(item, ['another-secret-value'])]).toEqual([false, true])
    // A frozen object is left unmarked (and walked), not an error.
    const frozen = Object.freeze({ id: 'f' })
    markChecked([frozen], [TOKEN])
    expect(isChecked(frozen, [TOKEN])).toBe(false)
  })

  it('marks an array’s elements, or a value itself; nothing without a usable secret', () => {
    const a = { id: 'a' }
    const b = { id: 'b' }
    markChecked([a, 'text', null], [TOKEN])
    markChecked(b, [TOKEN])
    expect([isChecked(a, [TOKEN]), isChecked(b, [TOKEN])]).toEqual([true, true])
    const c = { id: 'c' }
    markChecked([c], ['short', null])
    expect(isChecked(c, ['short'])).toBe(false)
  })
})

describe('a read whose items are held as text', () => {
  it('parses and masks only the items whose JSON holds a secret, in steps; the same read when none does', async () => {
    const items = longList(3 * MASK_STEP)
    const text = new ListText(items.map((i) => JSON.stringify(i)))
    const read = { data: text, source: 'network', syncedAt: null, offline: false }
    const masked = (await maskSecretsInSteps(read, [TOKEN])) as typeof read
    expect(masked.data).toBeInstanceOf(ListText)
    expect(masked.data.values()).toEqual(maskSecrets(items, [TOKEN]))
    expect(masked.data.texts.join('')).not.toContain(TOKEN)
    // Texts that held none are the same strings.
    expect(masked.data.texts[5]).toBe(text.texts[5])
    const clean = {
      ...read,
      data: new ListText(
        items.filter((i) => !JSON.stringify(i).includes(TOKEN)).map((i) => JSON.stringify(i))
      )
    }
    expect(await maskSecretsInSteps(clean, [TOKEN])).toBe(clean)
    // A secret JSON writes with escapes is found as JSON writes it.
    const quoted = 'a "quoted" secret\\value'
    const escaped = { ...read, data: new ListText([JSON.stringify({ id: 'x', note: `is ${quoted}` })]) }
    const out = (await maskSecretsInSteps(escaped, [quoted])) as typeof read
    expect(out.data.values()).toEqual([{ id: 'x', note: `is ${MASK}` }])
  })
})

describe('a read whose items are still being read as text', () => {
  it('masks each text as it arrives, those there before and those after', async () => {
    const items = Array.from({ length: 40 }, (_, i) => ({
      id: `a${i}`,
      note: i % 7 === 3 ? `echo ${TOKEN}` : 'plain'
    }))
    const list = new ComingListText(items.length)
    list.add(items.slice(0, 10).map((i) => JSON.stringify(i)))
    const read = { data: list, source: 'cache', syncedAt: null, offline: false, note: `by ${TOKEN}` }
    const masked = (await maskSecretsInSteps(read, [TOKEN])) as typeof read
    // The same list, masked in place as its texts come; the read's other fields masked now.
    expect(masked.data).toBe(list)
    expect(masked.note).toBe(`by ${MASK}`)
    list.add(items.slice(10).map((i) => JSON.stringify(i)))
    list.end()
    await list.whole()
    expect(list.values()).toEqual(maskSecrets(items, [TOKEN]))
    expect(list.texts.join('')).not.toContain(TOKEN)
  })
})

describe('a list read from the cache (rows as SQLite joins them, as bytes)', () => {
  const stores = tempStores()
  afterAll(() => stores.cleanup())

  it('masks the rows of a step that holds a secret, and keeps the others as they were read', async () => {
    const { cache } = stores.open()
    const items = Array.from({ length: 60 }, (_, i) => ({
      id: `a${i}`,
      name: `Agent ${i} — é`,
      note: i === 13 ? `echo ${TOKEN}` : 'plain'
    }))
    cache.putList('agents', '', items, '2024-01-01T00:00:00.000Z')
    // In steps, though it is short enough to be read in one go (listRead.ts' AT_ONCE).
    const got = await cache.listText('agents', '', { step: 20, atOnce: 0 })
    if (!(got?.value instanceof ComingListText)) throw new Error('expected a list still coming')
    const read = { data: got.value, source: 'cache', syncedAt: got.syncedAt, offline: false }
    await maskSecretsInSteps(read, [TOKEN])
    await got.value.whole()
    // Steps of 20: the second held the token and was masked as text; the others stay bytes.
    expect(got.value.held).toEqual({ texts: 20, bytes: 40 })
    const sent = got.value.jsonParts()
    expect(sent.join('')).not.toContain(TOKEN)
    expect(sent.flatMap((p) => JSON.parse(p) as unknown[])).toEqual(maskSecrets(items, [TOKEN]))
  })
})
