/** Tags: endpoints, write operations and IPC handlers. A new tag names its owner (the user). */
import { Tag } from '../../shared/tag'
import { crud, type Endpoints } from '../api/endpoints'
import { api, createOp, crudWrites, q, readRoutes, type Lease, type WriteKit } from './kit'

export const tagsEndpoints = (e: Endpoints) =>
  crud<typeof Tag, { name: string; color: string; userId: string }, { name?: string; color?: string }>(e, {
    resource: 'tags',
    schema: Tag,
    what: 'tag',
    fields: ['name', 'userId'],
    updateFields: ['name']
  })

const tags = (s: Lease) => tagsEndpoints(api(s))

export const tagWrites = {
  ...crudWrites('tags', 'tag', tags),
  'tags.create': (b: { name: string; color: string }, kit: WriteKit) =>
    createOp('tags', {
      label: () => `Create tag ${q(b.name)}`,
      known: (s) => ({ ...b, userId: s.user.id || undefined }),
      call: async (s) => {
        const userId = await kit.requireUserId(s)
        return tags(s).create({ name: b.name, color: b.color, userId })
      },
      find: (s) => tags(s).list()
    })
}

export const tagReads = readRoutes('tags', tags)
