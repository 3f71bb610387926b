// @vitest-environment happy-dom
/**
 * Forms over zod with drafts kept by the real main-process core (the profile's offline store):
 * written as typed, restored after a restart of the core, never a secret, one profile's drafts
 * never shown in another's.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import Database from 'libsql'
import { deskApiOver, testCore, waitFor, type TestCore } from '../../../../test/support/mainCore'
import { useForm, hasDraft } from './useForm'
import { draftsLoaded, flushDrafts, syncDrafts } from './drafts'

const Schema = z.object({
  name: z.string().trim().min(1, 'Enter a name'),
  apiToken: z.string().optional(),
  nested: z.object({ n: z.number().min(1, 'At least 1') })
})

const cores: TestCore[] = []
afterEach(async () => {
  await syncDrafts(null)
  while (cores.length) await cores.pop()?.core.dispose()
})

/** A core signed in to the Local workspace, the window API over it, its drafts loaded. */
async function signedIn(userDataDir?: string): Promise<TestCore> {
  const t = testCore(userDataDir ? { userDataDir } : {})
  cores.push(t)
  const s = await t.call('session.startLocal')
  window.agentDesk = deskApiOver(t)
  const loaded = draftsLoaded.value
  await syncDrafts(`${s.profile?.id}|${s.user?.id}`)
  expect(draftsLoaded.value).toBe(loaded + 1)
  return t
}

const mainDrafts = async (t: TestCore) => t.call('drafts.list')

describe('useForm', () => {
  it('keeps the draft in main as typed and restores it after a restart, never a token', async () => {
    const t = await signedIn()
    const a = useForm(Schema, { name: '', apiToken: '', nested: { n: 0 } }, { draftKey: 'tool-edit:x' })
    a.model.name = 'typed'
    a.model.apiToken = 'secret-value-123'
    a.model.nested.n = 3
    expect(hasDraft('tool-edit:x')).toBe(true)
    await waitFor(async () => (await mainDrafts(t)).length === 1)
    const [kept] = await mainDrafts(t)
    expect(kept?.value).toEqual({ name: 'typed', nested: { n: 3 } })

    // A restart: the core closes (SQLite file closed), a new one opens the same data folder.
    await syncDrafts(null)
    const dir = t.userDataDir
    await cores.pop()?.core.dispose()
    const files = await import('node:fs').then((fs) =>
      fs.readdirSync(`${dir}/cache`).filter((f) => f.endsWith('.sqlite'))
    )
    for (const f of files) {
      const db = new Database(`${dir}/cache/${f}`, { readonly: true })
      const text = JSON.stringify(db.prepare('SELECT * FROM drafts').all())
      db.close()
      expect(text).not.toContain('secret-value-123')
    }
    await signedIn(dir)
    const b = useForm(Schema, { name: '', apiToken: '', nested: { n: 0 } }, { draftKey: 'tool-edit:x' })
    expect(b.model.name).toBe('typed')
    expect(b.model.nested.n).toBe(3)
    expect(b.model.apiToken).toBe('')
    expect(b.restored.value).toBe(true)

    b.clearDraft()
    expect(hasDraft('tool-edit:x')).toBe(false)
    flushDrafts()
    await waitFor(async () => (await mainDrafts(cores[0] as TestCore)).length === 0)
    const c = useForm(Schema, { name: '', nested: { n: 0 } }, { draftKey: 'tool-edit:x' })
    expect(c.model.name).toBe('')
  })

  it('a form opened before the drafts arrived takes its draft when they come, unless typed in', async () => {
    const t = await signedIn()
    await t.call('drafts.save', { key: 'prompt-edit:p1', value: { name: 'Kept', nested: { n: 2 } } })
    await t.call('drafts.save', { key: 'prompt-edit:p2', value: { name: 'Also kept', nested: { n: 2 } } })
    const s = await t.call('session.get')
    await syncDrafts(null)
    const waiting = useForm(Schema, { name: '', nested: { n: 1 } }, { draftKey: 'prompt-edit:p1' })
    const typing = useForm(Schema, { name: '', nested: { n: 1 } }, { draftKey: 'prompt-edit:p2' })
    typing.model.name = 'Typed first'
    await syncDrafts(`${s.profile?.id}|${s.user?.id}`)
    expect(waiting.model.name).toBe('Kept')
    expect(waiting.restored.value).toBe(true)
    expect(typing.model.name).toBe('Typed first')
  })

  it('moves drafts an older version kept in localStorage into main, once', async () => {
    localStorage.setItem(
      'agent-desk:draft:agent-create',
      JSON.stringify({ name: 'Old draft', password: 'pw-123456' })
    )
    const t = await signedIn()
    expect(localStorage.getItem('agent-desk:draft:agent-create')).toBeNull()
    await waitFor(async () => (await mainDrafts(t)).some((d) => d.key === 'agent-create'))
    const kept = (await mainDrafts(t)).find((d) => d.key === 'agent-create')
    expect(kept?.value).toEqual({ name: 'Old draft' })
  })

  it('does not keep anything without a draft key', async () => {
    const t = await signedIn()
    const a = useForm(Schema, { name: '', nested: { n: 1 } })
    a.model.name = 'x'
    flushDrafts()
    await new Promise((r) => setTimeout(r, 300))
    expect(await mainDrafts(t)).toEqual([])
  })

  it('validates into field errors by path and maps server fields', () => {
    const f = useForm(Schema, { name: ' ', nested: { n: 0 } })
    expect(f.validate()).toBeNull()
    expect(f.errors.value).toEqual({ name: 'Enter a name', 'nested.n': 'At least 1' })
    f.model.name = 'ok'
    f.model.nested.n = 2
    expect(f.validate()).toEqual({ name: 'ok', nested: { n: 2 } })
    expect(f.errors.value).toEqual({})
    f.applyServerError({
      kind: 'validation',
      message: 'Refused',
      fields: [{ field: 'name', message: 'Taken' }]
    })
    expect(f.errors.value).toEqual({ name: 'Taken' })
    expect(f.model.name).toBe('ok')
    f.reset()
    expect(f.model.name).toBe(' ')
    expect(f.errors.value).toEqual({})
  })
})
