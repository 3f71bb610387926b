import { defineStore } from 'pinia'
import type { Agent, AgentCreate, AgentUpdate } from '../../../shared/agent'
import { desk } from '../desk'
import { useResourceStore } from '../composables/useResourceStore'

/** Shown at once while an agent update travels: the plain fields; tags come with the server's answer. */
function optimisticAgent(before: Agent, patch: AgentUpdate): Agent {
  const next: Agent = { ...before }
  if (patch.name !== undefined) next.name = patch.name.trim()
  if (patch.type !== undefined) next.type = patch.type
  if (patch.hasMemory !== undefined) next.hasMemory = patch.hasMemory
  if (patch.llm !== undefined) next.llm = { ...patch.llm }
  if (patch.promptId !== undefined) next.promptId = patch.promptId
  return next
}

/** Agents, via `window.agentDesk.agents`: cache-first list, optimistic update/delete with rollback. */
export const useAgentsStore = defineStore('agents', () => {
  const s = useResourceStore<Agent>({ resource: 'agents', list: (input) => desk().agents.list(input) })
  const { get, create, update, remove } = s.crud<AgentCreate, AgentUpdate>(
    () => desk().agents,
    optimisticAgent
  )

  return { ...s.state, get, create, update, remove }
})
