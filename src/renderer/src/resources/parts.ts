/**
 * The create form (`save`, `draftKey`) and the detail pane of each resource that the generic list
 * page shows, by the descriptor's path, loaded when first shown. They live apart from the
 * descriptors because these components read their descriptor (fields, pane settings): a
 * descriptor that named its components would import itself in a circle.
 */
import { defineAsyncComponent, type Component } from 'vue'

export interface ResourceParts {
  form: Component
  detail: Component
}

type Load = () => Promise<{ default: Component }>
const parts = (form: Load, detail: Load): ResourceParts => ({
  form: defineAsyncComponent(form),
  detail: defineAsyncComponent(detail)
})

export const RESOURCE_PARTS: Readonly<Record<string, ResourceParts>> = {
  '/documents': parts(
    () => import('../components/documents/DocumentForm.vue'),
    () => import('../components/documents/DocumentDetail.vue')
  ),
  '/tools': parts(
    () => import('../components/tools/ToolForm.vue'),
    () => import('../components/tools/ToolDetail.vue')
  ),
  '/prompts': parts(
    () => import('../components/prompts/PromptForm.vue'),
    () => import('../components/prompts/PromptDetail.vue')
  ),
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
