/**
 * The form of each resource the generic form renders: the shared zod schemas it validates with
 * (create / update), beside the descriptor's fields and model. Apart from the descriptors because
 * zod loads with the forms, not at first paint.
 */
import { PromptCreate, PromptUpdate, type Prompt } from '../../../shared/prompt'
import { ToolCreate, ToolUpdate, type Tool } from '../../../shared/tool'
import type { ResourceFormSpec } from '../composables/useResourceForm'
import { promptFields, promptModel } from './prompts'
import { toolFields, toolModel } from './tools'

const spec = <T>(
  noun: string,
  create: ResourceFormSpec<T>['create'],
  update: ResourceFormSpec<T>['update'],
  toModel: ResourceFormSpec<T>['toModel'],
  fields: ResourceFormSpec<T>['fields']
): ResourceFormSpec<T> => ({ noun, create, update, toModel, fields })

export const toolForm = spec<Tool>('tool', ToolCreate, ToolUpdate, toolModel, toolFields)
export const promptForm = spec<Prompt>('prompt', PromptCreate, PromptUpdate, promptModel, promptFields)
