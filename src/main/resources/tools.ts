/** Tools: endpoints, write operations and reads, all of the plain kind. */
import type { z } from 'zod'
import { Tool, type ToolCreate, type ToolUpdate } from '../../shared/tool'
import { crud, type Endpoints } from '../api/endpoints'
import { api, crudWrites, readRoutes, type Lease } from './kit'

type Create = z.output<typeof ToolCreate>
type Update = z.output<typeof ToolUpdate>
const fields = ['name', 'type', 'description', 'metadata']

export const toolsEndpoints = (e: Endpoints) =>
  crud<typeof Tool, Create, Update>(e, { resource: 'tools', schema: Tool, what: 'tool', fields })

const tools = (s: Lease) => toolsEndpoints(api(s))
export const toolWrites = crudWrites('tools', 'tool', tools)
export const toolReads = readRoutes('tools', tools)
