/** Tools: endpoints, write operations and IPC handlers (all of the plain kind). */
import type { z } from 'zod'
import { Tool, type ToolCreate, type ToolUpdate } from '../../shared/tool'
import { crud, type Endpoints } from '../api/endpoints'
import { api, crudWrites, getRoute, listRoute, writeRoute, type Lease, type Routes, type Writes } from './kit'

export type ToolCreateParsed = z.output<typeof ToolCreate>
export type ToolUpdateParsed = z.output<typeof ToolUpdate>

const FIELDS = ['name', 'type', 'description', 'metadata']

export const toolsEndpoints = (e: Endpoints) =>
  crud<typeof Tool, ToolCreateParsed, ToolUpdateParsed>(e, {
    resource: 'tools',
    path: '/tools',
    schema: Tool,
    what: 'tool',
    createFields: FIELDS,
    updateFields: FIELDS
  })

const tools = (s: Lease) => toolsEndpoints(api(s))
const w = crudWrites('tools', 'tool', tools)

export const toolWrites: Writes<'tools.create' | 'tools.update' | 'tools.delete'> = {
  'tools.create': w.create,
  'tools.update': w.update,
  'tools.delete': w.delete
}

export const toolRoutes: Routes<
  'tools.list' | 'tools.get' | 'tools.create' | 'tools.update' | 'tools.delete'
> = {
  'tools.list': listRoute('tools', (s) => tools(s).list()),
  'tools.get': getRoute('tools', (s, id) => tools(s).get(id)),
  'tools.create': writeRoute('tools.create'),
  'tools.update': writeRoute('tools.update'),
  'tools.delete': writeRoute('tools.delete')
}
