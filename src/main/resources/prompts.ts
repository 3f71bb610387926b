/** Prompts: endpoints, write operations and IPC handlers (all of the plain kind). */
import type { z } from 'zod'
import { Prompt, type PromptCreate, type PromptUpdate } from '../../shared/prompt'
import { crud, type Endpoints } from '../api/endpoints'
import { api, crudWrites, getRoute, listRoute, writeRoute, type Lease, type Routes, type Writes } from './kit'

export type PromptCreateParsed = z.output<typeof PromptCreate>
export type PromptUpdateParsed = z.output<typeof PromptUpdate>

const FIELDS = ['name', 'template', 'input_variables']

export const promptsEndpoints = (e: Endpoints) =>
  crud<typeof Prompt, PromptCreateParsed, PromptUpdateParsed>(e, {
    resource: 'prompts',
    path: '/prompts',
    schema: Prompt,
    what: 'prompt',
    createFields: FIELDS,
    updateFields: FIELDS
  })

const prompts = (s: Lease) => promptsEndpoints(api(s))
const w = crudWrites('prompts', 'prompt', prompts)

export const promptWrites: Writes<'prompts.create' | 'prompts.update' | 'prompts.delete'> = {
  'prompts.create': w.create,
  'prompts.update': w.update,
  'prompts.delete': w.delete
}

export const promptRoutes: Routes<
  'prompts.list' | 'prompts.get' | 'prompts.create' | 'prompts.update' | 'prompts.delete'
> = {
  'prompts.list': listRoute('prompts', (s) => prompts(s).list()),
  'prompts.get': getRoute('prompts', (s, id) => prompts(s).get(id)),
  'prompts.create': writeRoute('prompts.create'),
  'prompts.update': writeRoute('prompts.update'),
  'prompts.delete': writeRoute('prompts.delete')
}
