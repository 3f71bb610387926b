import type { Agent } from '../../../../shared/agent'
import type { Tag } from '../../../../shared/tag'
import { computed, type ComputedRef } from 'vue'
import { useTagsStore } from '../../stores/tags'
import { usePromptsStore } from '../../stores/prompts'
import { useDocumentsStore } from '../../stores/documents'

/** The agent form's model (one shape for create and edit). Tags are held as ids. */
export interface AgentFormModel {
  name: string
  type: string
  llm: { provider: string; model: string }
  hasMemory: boolean
  promptId: string | null
  documentId: string | null
  tags: string[]
}

export function emptyAgentModel(): AgentFormModel {
  return {
    name: '',
    type: 'CHATVENDOR',
    llm: { provider: '', model: '' },
    hasMemory: false,
    promptId: null,
    documentId: null,
    tags: []
  }
}

export function agentToModel(a: Agent): AgentFormModel {
  return {
    name: a.name ?? '',
    type: a.type ?? 'CHATVENDOR',
    llm: { provider: a.llm?.provider ?? '', model: a.llm?.model ?? '' },
    hasMemory: a.hasMemory ?? false,
    promptId: a.promptId ?? null,
    documentId: a.documentId ?? null,
    tags: (a.tags ?? []).map((t) => t.id)
  }
}

/** Tag ids → the tag objects the API expects ({id, name, color}); unknown ids stay ids. */
export function tagRefs(
  ids: readonly string[],
  known: readonly Tag[]
): (string | { id: string; name?: string; color?: string })[] {
  const byId = new Map(known.map((t) => [t.id, t]))
  return ids.map((id) => {
    const t = byId.get(id)
    if (!t) return id
    const ref: { id: string; name?: string; color?: string } = { id }
    if (t.name !== undefined) ref.name = t.name
    if (t.color !== undefined) ref.color = t.color
    return ref
  })
}

/** What the agent form offers to choose from (its `tags`, `prompts` and `documents` props). */
export function useAgentChoices(): ComputedRef<{
  tags: Tag[]
  prompts: { id: string; name?: string | undefined }[]
  documents: { id: string; name?: string | undefined }[]
}> {
  const tags = useTagsStore()
  const prompts = usePromptsStore()
  const documents = useDocumentsStore()
  return computed(() => ({ tags: tags.items, prompts: prompts.items, documents: documents.items }))
}
