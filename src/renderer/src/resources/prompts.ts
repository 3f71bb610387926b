import type { Prompt, PromptUpdate } from '../../../shared/prompt'
import { usePromptsStore } from '../stores/prompts'
import { namedResource } from './define'
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
    title: (p) => p.name || '(unnamed)',
    meta: (p) => `${(p.input_variables ?? []).length} vars`
  },
  createChannel: 'prompts.create',
  listChannel: 'prompts.list',
  create: (input) =>
    usePromptsStore().create({ ...input, name: input.name ?? '', template: input.template ?? '' }),
  openErrorText: (err, id) => (err.kind === 'not_found' ? `No prompt has the id “${id}”` : err.message),
  // The server has no prompt list: not an error, the user opens prompts by id.
  notifyListError: (err) => err.kind !== 'not_offered'
}

/** The prompt form's fields (validated with PromptCreate / PromptUpdate); the variables have their own part. */
export const promptFields: readonly FormField[] = [
  { key: 'name', label: 'Name', kind: 'text', placeholder: 'Summarise a ticket' },
  {
    key: 'template',
    label: 'Template',
    kind: 'textarea',
    rows: { min: 5, max: 18 },
    mono: true,
    placeholder: 'Summarise {ticket} for {audience}. Use {{ and }} for literal braces.'
  },
  { key: 'input_variables', label: 'Input variables', kind: 'custom' }
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
