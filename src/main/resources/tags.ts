/** Tags: endpoints, write operations and IPC handlers. A new tag names its owner (the user). */
import { Tag } from '../../shared/tag'
import { crud, type Endpoints } from '../api/endpoints'
import {
  api,
  createOp,
  crudWrites,
  getRoute,
  listRoute,
  q,
  writeRoute,
  type Lease,
  type Routes,
  type Writes
} from './kit'

export const tagsEndpoints = (e: Endpoints) =>
  crud<typeof Tag, { name: string; color: string; userId: string }, { name?: string; color?: string }>(e, {
    resource: 'tags',
    path: '/tags',
    schema: Tag,
    what: 'tag',
    createFields: ['name', 'userId'],
    updateFields: ['name']
  })

const tags = (s: Lease) => tagsEndpoints(api(s))
const w = crudWrites('tags', 'tag', tags)

export const tagWrites: Writes<'tags.create' | 'tags.update' | 'tags.delete'> = {
  'tags.create': (b, kit) =>
    createOp('tags', {
      label: () => `Create tag ${q(b.name)}`,
      known: (s) => ({ ...b, userId: s.user.id || undefined }),
      call: async (s) => {
        const userId = await kit.requireUserId(s)
        return tags(s).create({ name: b.name, color: b.color, userId })
      }
    }),
  'tags.update': w.update,
  'tags.delete': w.delete
}

export const tagRoutes: Routes<'tags.list' | 'tags.get' | 'tags.create' | 'tags.update' | 'tags.delete'> = {
  'tags.list': listRoute('tags', (s) => tags(s).list()),
  'tags.get': getRoute('tags', (s, id) => tags(s).get(id)),
  'tags.create': writeRoute('tags.create'),
  'tags.update': writeRoute('tags.update'),
  'tags.delete': writeRoute('tags.delete')
}
