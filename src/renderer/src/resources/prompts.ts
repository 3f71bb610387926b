import type { Prompt, PromptUpdate } from '../../../shared/prompt'
import { usePromptsStore } from '../stores/prompts'
import { i18n } from '../i18n'
import { field, msg, namedResource } from './define'
import type { DetailDescriptor, FormField, ResourceDescriptor } from './types'

/**
 * Prompts: open any prompt by its id (always possible), and — where the server offers them —
 * list, create and delete.
 */
export const prompts: ResourceDescriptor<Prompt, PromptUpdate> = {
  ...namedResource('prompt'),
  useStore: usePromptsStore,
  query: { name: (p) => p.name ?? '', date: (p) => p.createdAt },
  row: {
    title: (p) => p.name || msg('resources.unnamed'),
    meta: (p) => {
      const n = (p.input_variables ?? []).length
      return i18n.global.t('resources.prompt.vars', { n }, n)
    }
  },
  createChannel: 'prompts.create',
  listChannel: 'prompts.list',
  create: (input) =>
    usePromptsStore().create({ ...input, name: input.name ?? '', template: input.template ?? '' }),
  openErrorText: (err, id) =>
    err.kind === 'not_found' ? msg('resources.prompt.noSuchId', { id }) : err.message,
  // The server has no prompt list: not an error, the user opens prompts by id.
  notifyListError: (err) => err.kind !== 'not_offered'
}

/** The key of one of the form's messages (locales/<locale>/resources.json). */
const k = (key: string) => `resources.prompt.form.${key}`
/** The prompt form's fields (validated with PromptCreate / PromptUpdate); the variables have their own part. */
export const promptFields: readonly FormField[] = [
  field({ key: 'name', kind: 'text' }, { label: k('name'), placeholder: k('namePlaceholder') }),
  field(
    { key: 'template', kind: 'textarea', rows: { min: 5, max: 18 }, mono: true },
    { label: k('template'), placeholder: k('templatePlaceholder') }
  ),
  field({ key: 'input_variables', kind: 'custom' }, { label: k('inputVariables') })
]

export function promptModel(p: Prompt | null) {
  return {
    name: p?.name ?? '',
    template: p?.template ?? '',
    input_variables: [...(p?.input_variables ?? [])]
  }
}

export const promptPane: DetailDescriptor = {
  testid: 'prompt',
  noun: 'prompt',
  plural: 'prompts',
  path: '/prompts',
  deleteChannel: 'prompts.delete',
  dates: true
}
