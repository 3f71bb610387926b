/** Agents: endpoints, write operations and IPC handlers. */
import type { z } from 'zod'
import { Agent, type AgentCreate, type AgentUpdate } from '../../shared/agent'
import { crud, type Endpoints } from '../api/endpoints'
import type { Item } from '../offline/types'
import {
  api,
  cachedItem,
  cachedName,
  createOp,
  getRoute,
  listRoute,
  plainDelete,
  q,
  updateOp,
  writeRoute,
  type Lease,
  type Routes,
  type Writes
} from './kit'

export type AgentCreateParsed = z.output<typeof AgentCreate>
export type AgentUpdateParsed = z.output<typeof AgentUpdate>

const FIELDS = ['name', 'type', 'llm', 'hasMemory', 'promptId', 'documentId']

export const agentsEndpoints = (e: Endpoints) =>
  crud<typeof Agent, AgentCreateParsed, AgentUpdateParsed>(e, {
    resource: 'agents',
    path: '/agents',
    schema: Agent,
    what: 'agent',
    createFields: FIELDS,
    updateFields: FIELDS
  })

const agents = (s: Lease) => agentsEndpoints(api(s))

type TagRef = string | { id: string; [k: string]: unknown }

/** Tag references as the server wants them (`{id, name, color}`), from what the cache knows. */
function tagObjects(s: Lease, refs: readonly TagRef[]): Item[] {
  return refs.map((r) => {
    if (typeof r !== 'string') return { ...r }
    const t = cachedItem(s, 'tags', r)
    const out: Item = { id: r }
    if (t && typeof t.name === 'string') out.name = t.name
    if (t && typeof t.color === 'string') out.color = t.color
    return out
  })
}

/** The body with its tags as objects. */
function withTagObjects<B extends { tags?: readonly TagRef[] | undefined }>(s: Lease, b: B): B {
  return b.tags ? { ...b, tags: tagObjects(s, b.tags) } : b
}

export const agentWrites: Writes<'agents.create' | 'agents.update' | 'agents.delete'> = {
  'agents.create': (b) => {
    const refs = [b.promptId, b.documentId, ...(b.tags ?? []).map((t) => (typeof t === 'string' ? t : t.id))]
    return createOp('agents', {
      label: () => `Create agent ${q(b.name)}`,
      known: (s) => ({ ...withTagObjects(s, b) }),
      call: (s) => agents(s).create(withTagObjects(s, b)),
      refs: refs.filter((x): x is string => typeof x === 'string')
    })
  },
  'agents.update': ({ id, patch }) =>
    updateOp('agents', id, {
      label: (s) => `Change agent ${q(cachedName(s, 'agents', id))}`,
      known: (s) => ({ ...withTagObjects(s, patch) }),
      call: (s) => agents(s).update(id, withTagObjects(s, patch))
    }),
  'agents.delete': plainDelete('agents', 'agent', (s, id) => agents(s).delete(id))
}

export const agentRoutes: Routes<
  'agents.list' | 'agents.get' | 'agents.create' | 'agents.update' | 'agents.delete'
> = {
  'agents.list': listRoute('agents', (s) => agents(s).list()),
  'agents.get': getRoute('agents', (s, id) => agents(s).get(id)),
  'agents.create': writeRoute('agents.create'),
  'agents.update': writeRoute('agents.update'),
  'agents.delete': writeRoute('agents.delete')
}
