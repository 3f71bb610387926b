import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { z } from 'zod'
import { Agent } from './agent'
import { ApiToken } from './apiToken'
import { Document } from './document'
import { Prompt } from './prompt'
import { Tag } from './tag'
import { Tool } from './tool'
import { User } from './user'

const at = '2024-01-02T03:04:05.678000+00:00'
const tag = { id: 't1', name: 'Ops', color: '#a1b2c3', userId: 'u1', createdAt: at, updatedAt: at }
/** One item of each resource as the service sends it. */
const examples: [string, z.ZodUnion<readonly [z.ZodType, z.ZodType]>, Record<string, unknown>][] = [
  [
    'agent',
    Agent,
    {
      id: 'a1',
      userId: 'u1',
      user: {},
      document: {},
      documentId: null,
      promptId: 'p1',
      name: 'Support bot',
      type: 'chat',
      tags: [tag, { ...tag, id: 't2' }],
      llm: { provider: 'openai', model: 'gpt-4o' },
      hasMemory: true,
      AgentMemory: null,
      createdAt: at,
      updatedAt: at
    }
  ],
  ['tag', Tag, tag],
  [
    'document',
    Document,
    {
      id: 'd1',
      userId: 'u1',
      user: {},
      name: 'Manual',
      type: 'pdf',
      url: 'https://example.com/m.pdf',
      from_page: 1,
      to_page: '4',
      metadata: { a: [1, { b: null }] },
      authorization: null,
      splitter: { size: 500 },
      createdAt: at,
      updatedAt: at,
      index: null,
      Agent: null
    }
  ],
  [
    'tool',
    Tool,
    {
      id: 7,
      userId: 'u1',
      user: {},
      name: 'Search',
      type: 'api',
      description: 'Finds',
      metadata: {},
      createdAt: at,
      updatedAt: at
    }
  ],
  [
    'prompt',
    Prompt,
    {
      id: 'p1',
      userId: 'u1',
      name: 'Greet',
      template: 'Hi {name}',
      input_variables: ['name'],
      createdAt: at,
      updatedAt: at
    }
  ],
  [
    'API token',
    ApiToken,
    { id: 'k1', userId: 'u1', user: {}, description: 'CI', token: 'x'.repeat(20), createdAt: at }
  ],
  ['user', User, { id: 'u1', email: 'a@example.com', name: 'Ann', createdAt: at, updatedAt: at }]
]

/** Any JSON value, and now and then a value that is not JSON (what a caller might pass). */
const oddValue = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(undefined, Number.NaN, -0, Infinity) }
)

/** The item with some fields replaced, deleted or added (nested ones too: a tag in an agent). */
function mutated(example: Record<string, unknown>) {
  const keys = [...Object.keys(example), 'extra', 'id']
  const change = fc.tuple(fc.constantFrom(...keys), fc.option(oddValue, { nil: undefined }), fc.boolean())
  return fc.array(change, { maxLength: 4 }).map((changes) => {
    const item: Record<string, unknown> = structuredClone(example)
    for (const [key, value, remove] of changes) {
      if (remove) delete item[key]
      else if (key === 'tags' && Array.isArray(item.tags) && value !== undefined)
        item.tags = [...item.tags, value, { ...tag, color: value }]
      else item[key] = value
    }
    return item
  })
}

describe('tolerantObject', () => {
  for (const [what, schema, example] of examples) {
    const [exact, tolerant] = schema.options

    it(`reads a well-formed ${what} without its fallbacks`, () => {
      expect(exact.safeParse(example).success).toBe(true)
      expect(schema.safeParse(example).data).toStrictEqual(tolerant.safeParse(example).data)
    })

    it(`reads any ${what} exactly as the tolerant reading alone does`, () => {
      fc.assert(
        fc.property(mutated(example), (item) => {
          const before = structuredClone(item)
          const [read, alone] = [schema.safeParse(item), tolerant.safeParse(item)]
          // The same item, or none (what fails is not read: an item without an id).
          expect(read.success).toBe(alone.success)
          expect(read.data).toStrictEqual(alone.data)
          expect(item).toStrictEqual(before) // the first reading changed nothing
        }),
        { numRuns: 400 }
      )
    })
  }

  it('drops only the odd field of an item, and needs an id', () => {
    const agent = examples[0]?.[2] as Record<string, unknown>
    const read = Agent.safeParse({ ...agent, name: 42, llm: 'x', tags: [tag, null, 3] })
    expect(read.success).toBe(true)
    expect(read.data).toMatchObject({ id: 'a1', type: 'chat', tags: [{ id: 't1', color: '#A1B2C3' }] })
    expect(read.data?.name).toBeUndefined()
    expect(read.data?.llm).toBeUndefined()
    expect(Agent.safeParse({ ...agent, id: '' }).success).toBe(false)
  })
})
