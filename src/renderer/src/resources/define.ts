import type { ListQueryOptions } from '../composables/useListQuery'
import type { FormField, RowDescriptor } from './types'
import { valueLabel } from '../labels'
import { i18n } from '../i18n'

/** A message in the interface's language, looked up when it is shown (so a language switch shows). */
export const msg = (key: string, params: Record<string, unknown> = {}): string => i18n.global.t(key, params)

type FieldText = 'label' | 'placeholder' | 'invalidJson' | 'invalidJsonHint'
/**
 * A form field whose texts are message keys (`texts`), each read in the interface's language
 * whenever the form reads it (getters), so a descriptor built at module load follows the language.
 */
export function field(
  f: Omit<FormField, FieldText>,
  texts: { label: string } & Partial<Record<FieldText, string>>
): FormField {
  const out = { ...f } as FormField
  for (const [prop, key] of Object.entries(texts)) {
    Object.defineProperty(out, prop, { get: () => msg(key), enumerable: true })
  }
  return out
}

/**
 * The names a resource takes from its noun ("tool"): route `/tools`, test ids `tool-…`, the
 * create draft key, the detail pane's prop, and how a queued create is named in the outbox
 * ("Create tool “X”"). Its words for the screen are in locales/<locale>/resources.json.
 */
export function namedResource(noun: string) {
  const plural = `${noun}s`
  return {
    path: `/${plural}`,
    noun,
    plural,
    testid: noun,
    createLabel: (input: { name?: string }) => `Create ${noun} “${input.name ?? ''}”`,
    draftKey: `${noun}-create`,
    detailProp: noun
  }
}

interface NamedTyped {
  name?: string
  type?: string
  createdAt?: string
}

/**
 * A list of named, typed items (documents, tools): search by name, filter by type (the known
 * types offered even when no item has them), the type as the row's badge, rows drag onto agents.
 */
export function typedList<T extends NamedTyped>(
  types: readonly string[],
  drag: RowDescriptor<T>['drag'],
  hover: RowDescriptor<T>['hover']
): { query: ListQueryOptions<T>; typeFilter: true; row: RowDescriptor<T> } {
  return {
    query: { name: (d) => d.name ?? '', type: (d) => d.type, date: (d) => d.createdAt, types },
    typeFilter: true,
    row: {
      title: (d) => d.name || msg('resources.unnamed'),
      badge: (d) => valueLabel(d.type) || '?',
      hover,
      drag
    }
  }
}
