// @vitest-environment happy-dom
import { describe, expect, it, beforeEach } from 'vitest'
import { nextTick } from 'vue'
import { z } from 'zod'
import { useForm, draftStorageKey, hasDraft } from './useForm'

const Schema = z.object({
  name: z.string().trim().min(1, 'Enter a name'),
  apiToken: z.string().optional(),
  nested: z.object({ n: z.number().min(1, 'At least 1') })
})

describe('useForm', () => {
  beforeEach(() => localStorage.clear())

  it('persists the draft under its key and restores it on the next mount, never a token', async () => {
    const a = useForm(Schema, { name: '', apiToken: '', nested: { n: 0 } }, { draftKey: 'x' })
    a.model.name = 'typed'
    a.model.apiToken = 'secret-value'
    a.model.nested.n = 3
    await nextTick()
    const raw = localStorage.getItem(draftStorageKey('x'))
    expect(raw).not.toBeNull()
    expect(raw).not.toContain('secret-value')
    expect(raw).not.toContain('apiToken')

    const b = useForm(Schema, { name: '', apiToken: '', nested: { n: 0 } }, { draftKey: 'x' })
    expect(b.model.name).toBe('typed')
    expect(b.model.nested.n).toBe(3)
    expect(b.model.apiToken).toBe('')
    expect(b.restored.value).toBe(true)

    b.clearDraft()
    expect(localStorage.getItem(draftStorageKey('x'))).toBeNull()
    const c = useForm(Schema, { name: '', nested: { n: 0 } }, { draftKey: 'x' })
    expect(c.model.name).toBe('')
  })

  it('tells which drafts are kept (lists mark those items), as they are written and cleared', () => {
    const f = useForm(Schema, { name: 'A', nested: { n: 1 } }, { draftKey: 'tool-edit:t1' })
    expect(hasDraft('tool-edit:t1')).toBe(false)
    f.model.name = 'Typed'
    expect(hasDraft('tool-edit:t1')).toBe(true)
    expect(hasDraft('tool-edit:t2')).toBe(false)
    f.clearDraft()
    expect(hasDraft('tool-edit:t1')).toBe(false)
    expect(localStorage.getItem(draftStorageKey('tool-edit:t1'))).toBeNull()
  })

  it('does not persist without a draft key', () => {
    const a = useForm(Schema, { name: '', nested: { n: 1 } })
    a.model.name = 'x'
    expect(localStorage.length).toBe(0)
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
