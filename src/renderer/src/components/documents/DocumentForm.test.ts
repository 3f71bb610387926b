// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import DocumentForm from './DocumentForm.vue'

const wrappers: VueWrapper[] = []
function mountForm(save: (input: unknown) => Promise<unknown>, draftKey: string | null = null) {
  const w = mount(DocumentForm, { props: { save, draftKey }, attachTo: document.body })
  wrappers.push(w)
  return w
}

async function fill(w: VueWrapper, testid: string, value: string) {
  const el = w.find(`[data-testid="${testid}"]`)
  expect(el.exists(), testid).toBe(true)
  await el.setValue(value)
}

async function fillNumber(w: VueWrapper, testid: string, value: string) {
  const el = w.find(`[data-testid="${testid}"]`)
  await el.setValue(value)
  await el.trigger('blur')
}

beforeEach(() => localStorage.clear())
afterEach(() => {
  while (wrappers.length) wrappers.pop()?.unmount()
})

describe('DocumentForm', () => {
  it('shows field errors for a bad URL and a last page before the first page, and does not save', async () => {
    const save = vi.fn<(input: unknown) => Promise<unknown>>(async () => ({ status: 'done' }))
    const w = mountForm(save)
    await fill(w, 'field-name', 'Report')
    await fill(w, 'field-url', 'not a url')
    await fillNumber(w, 'field-from_page', '5')
    await fillNumber(w, 'field-to_page', '2')
    await w.find('[data-testid="save-button"]').trigger('click')
    await flushPromises()
    expect(save).not.toHaveBeenCalled()
    const text = w.text()
    expect(text).toContain('Enter a public http(s) URL')
    expect(text).toContain('Last page comes before the first page')
  })

  it('turns metadata rows into an object and sends every field', async () => {
    const save = vi.fn(async (input: unknown) => ({ status: 'done', data: input }))
    const w = mountForm(save)
    await fill(w, 'field-name', 'Handbook')
    await fill(w, 'field-url', 'https://example.com/h.pdf')
    await fillNumber(w, 'field-from_page', '2')
    await fillNumber(w, 'field-to_page', '9')
    await w.find('[data-testid="metadata-add"]').trigger('click')
    await w.find('[data-testid="metadata-add"]').trigger('click')
    await w.find('[data-testid="metadata-add"]').trigger('click')
    const keys = w.findAll('[data-testid="metadata-key"]')
    const values = w.findAll('[data-testid="metadata-value"]')
    expect(keys).toHaveLength(3)
    await keys[0]!.setValue('team')
    await values[0]!.setValue('sales')
    await keys[1]!.setValue('year')
    await values[1]!.setValue('2024')
    // the third row is removed again
    await w.findAll('[data-testid="metadata-remove"]')[2]!.trigger('click')
    expect(w.findAll('[data-testid="metadata-row"]')).toHaveLength(2)
    await w.find('[data-testid="save-button"]').trigger('click')
    await flushPromises()
    expect(save).toHaveBeenCalledTimes(1)
    expect(save.mock.calls[0]?.[0]).toMatchObject({
      name: 'Handbook',
      type: 'PDF',
      url: 'https://example.com/h.pdf',
      from_page: 2,
      to_page: 9,
      metadata: { team: 'sales', year: '2024' },
      authorization: null,
      splitter: null
    })
    expect(w.emitted('saved')).toHaveLength(1)
    // the form is cleared for the next document
    expect((w.find('[data-testid="field-name"]').element as HTMLInputElement).value).toBe('')
  })

  it('flags a metadata value without a key', async () => {
    const save = vi.fn<(input: unknown) => Promise<unknown>>(async () => ({}))
    const w = mountForm(save)
    await fill(w, 'field-name', 'A')
    await fill(w, 'field-url', 'https://example.com/a')
    await w.find('[data-testid="metadata-add"]').trigger('click')
    await w.find('[data-testid="metadata-value"]').setValue('orphan')
    await w.find('[data-testid="save-button"]').trigger('click')
    await flushPromises()
    expect(save).not.toHaveBeenCalled()
    expect(w.text()).toContain('Enter a key')
  })

  it('blocks saving while the authorization JSON is invalid', async () => {
    const save = vi.fn<(input: unknown) => Promise<unknown>>(async () => ({}))
    const w = mountForm(save)
    await fill(w, 'field-name', 'A')
    await fill(w, 'field-url', 'https://example.com/a')
    await w.find('[data-testid="field-authorization"]').setValue('{ "type": ')
    await w.find('[data-testid="save-button"]').trigger('click')
    await flushPromises()
    expect(save).not.toHaveBeenCalled()
    expect(w.text()).toContain('Not valid JSON')
  })

  it('keeps the input and shows the server field message when the server refuses', async () => {
    const refusal = Object.assign(new Error('The document was refused'), {
      kind: 'validation',
      fields: [{ field: 'url', message: 'That host is not reachable from the server' }]
    })
    const save = vi.fn<(input: unknown) => Promise<unknown>>(async () => {
      throw refusal
    })
    const w = mountForm(save)
    await fill(w, 'field-name', 'Keep me')
    await fill(w, 'field-url', 'https://intranet.example/x.pdf')
    await w.find('[data-testid="save-button"]').trigger('click')
    await flushPromises()
    expect(save).toHaveBeenCalledTimes(1)
    expect(w.text()).toContain('That host is not reachable from the server')
    expect((w.find('[data-testid="field-name"]').element as HTMLInputElement).value).toBe('Keep me')
    expect((w.find('[data-testid="field-url"]').element as HTMLInputElement).value).toBe(
      'https://intranet.example/x.pdf'
    )
    expect(w.emitted('saved')).toBeUndefined()
  })

  it('restores a draft typed before a restart', async () => {
    const save = vi.fn<(input: unknown) => Promise<unknown>>(async () => ({}))
    const first = mountForm(save, 'test-doc-create')
    await fill(first, 'field-name', 'Half typed')
    first.unmount()
    wrappers.splice(wrappers.indexOf(first), 1)
    const second = mountForm(save, 'test-doc-create')
    expect((second.find('[data-testid="field-name"]').element as HTMLInputElement).value).toBe('Half typed')
  })
})
