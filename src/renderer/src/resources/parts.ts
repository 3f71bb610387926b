/**
 * The create form (`save`, `draftKey`) and the detail pane of each resource that the generic list
 * page shows, by the descriptor's path, loaded when first shown. They live apart from the
 * descriptors because these components read their descriptor (fields, pane settings): a
 * descriptor that named its components would import itself in a circle.
 */
import { defineAsyncComponent, type Component } from 'vue'
import { usePromptsStore } from '../stores/prompts'
import { useToolsStore } from '../stores/tools'
import { promptPane } from './prompts'
import { toolPane } from './tools'
import type { EditPane } from './types'

/** The create form, and the detail pane: its own component, or (`edit`) the edit form in FormDetail. */
export interface ResourceParts {
  form: Component
  detail?: Component
  edit?: EditPane
}

type Load = () => Promise<{ default: Component }>
function parts(load: Load, detail: Load | Omit<EditPane, 'form'>): ResourceParts {
  const form = defineAsyncComponent(load)
  return typeof detail === 'function'
    ? { form, detail: defineAsyncComponent(detail) }
    : { form, edit: { ...detail, form } }
}

export const RESOURCE_PARTS: Readonly<Record<string, ResourceParts>> = {
  '/documents': parts(
    () => import('../components/documents/DocumentForm.vue'),
    () => import('../components/documents/DocumentDetail.vue')
  ),
  '/tools': parts(() => import('../components/tools/ToolForm.vue'), {
    pane: toolPane,
    useStore: useToolsStore,
    badge: true
  }),
  '/prompts': parts(() => import('../components/prompts/PromptForm.vue'), {
    pane: promptPane,
    useStore: usePromptsStore
  }),
  '/api-tokens': parts(
    () => import('../components/apiTokens/TokenForm.vue'),
    () => import('../components/apiTokens/TokenDetail.vue')
  )
}

/** The parts of the resource at `path` (a descriptor without parts is a programming error). */
export function resourceParts(path: string): ResourceParts {
  const parts = RESOURCE_PARTS[path]
  if (!parts) throw new Error(`No form and detail pane for ${path}`)
  return parts
}
