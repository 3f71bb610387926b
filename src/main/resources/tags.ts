/** Tags: endpoints, write operations and IPC handlers. A new tag names its owner (the user). */
import { normalizeColor, Tag } from '../../shared/tag'
import { crud, type Endpoints } from '../api/endpoints'
import { api, createOp, crudWrites, q, readRoutes, type Lease, type WriteKit } from './kit'

type TagCreateBody = { name: string; color: string; userId: string }
type TagPatch = { name?: string; color?: string }

/**
 * Tags on the wire. A colour is sent only as `#RRGGBB` upper case (decisions.md): a `#RGB` (an old
 * outbox entry, a caller that skipped the IPC schema) is expanded here, so a server that accepts
 * only the document's seven-character form takes it. Answers are made canonical by the Tag schema.
 */
export const tagsEndpoints = (e: Endpoints) => {
  const plain = crud<typeof Tag, TagCreateBody, TagPatch>(e, {
    resource: 'tags',
    schema: Tag,
    what: 'tag',
    fields: ['name', 'userId'],
    updateFields: ['name']
  })
  const wireColor = (c: string) => normalizeColor(c) ?? c
  return {
    ...plain,
    create: (b: TagCreateBody) => plain.create({ ...b, color: wireColor(b.color) }),
    update: (id: string, patch: TagPatch) =>
      plain.update(id, patch.color === undefined ? patch : { ...patch, color: wireColor(patch.color) })
  }
}

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
