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
  crudWrites,
  q,
  readRoutes,
  updateOp,
  type Lease,
  type Writes
} from './kit'

export type AgentCreateParsed = z.output<typeof AgentCreate>
export type AgentUpdateParsed = z.output<typeof AgentUpdate>

const FIELDS = ['name', 'type', 'llm', 'hasMemory', 'promptId', 'documentId']

export const agentsEndpoints = (e: Endpoints) =>
  crud<typeof Agent, AgentCreateParsed, AgentUpdateParsed>(e, {
    resource: 'agents',
    schema: Agent,
    what: 'agent',
    fields: FIELDS
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
      find: (s) => agents(s).list(),
      refs: refs.filter((x): x is string => typeof x === 'string')
    })
  },
  'agents.update': ({ id, patch }) =>
    updateOp('agents', id, {
      label: (s) => `Change agent ${q(cachedName(s, 'agents', id))}`,
      known: (s) => ({ ...withTagObjects(s, patch) }),
      call: (s) => agents(s).update(id, withTagObjects(s, patch)),
      current: (s) => agents(s).get(id)
    }),
  'agents.delete': crudWrites('agents', 'agent', agents)['agents.delete']
}

export const agentReads = readRoutes('agents', agents)
