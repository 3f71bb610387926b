/** Prompts: endpoints, write operations and reads, all of the plain kind. */
import type { z } from 'zod'
import { Prompt, type PromptCreate, type PromptUpdate } from '../../shared/prompt'
import { crud, type Endpoints } from '../api/endpoints'
import { api, crudWrites, readRoutes, type Lease } from './kit'

type Create = z.output<typeof PromptCreate>
type Update = z.output<typeof PromptUpdate>
const fields = ['name', 'template', 'input_variables']

export const promptsEndpoints = (e: Endpoints) =>
  crud<typeof Prompt, Create, Update>(e, { resource: 'prompts', schema: Prompt, what: 'prompt', fields })

const prompts = (s: Lease) => promptsEndpoints(api(s))
export const promptWrites = crudWrites('prompts', 'prompt', prompts)
export const promptReads = readRoutes('prompts', prompts)
