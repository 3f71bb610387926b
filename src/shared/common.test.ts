import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { isDeepStrictEqual } from 'node:util'
import type { z } from 'zod'
import { Agent } from './agent'
import { ApiToken } from './apiToken'
import { Document } from './document'
import { asIsCheck } from './fields'
import { AgentDocument } from './links'
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

/** The examples as our service sends them: ids are text and colours `#RRGGBB` upper case. */
const served = (example: Record<string, unknown>): Record<string, unknown> => {
  const item = structuredClone(example)
  if (typeof item.id === 'number') item.id = String(item.id)
  if (typeof item.color === 'string') item.color = item.color.toUpperCase()
  if (Array.isArray(item.tags))
    item.tags = item.tags.map((t: Record<string, unknown>) => ({
      ...t,
      color: String(t.color).toUpperCase()
    }))
  return item
}

/** An own `__proto__` key (as JSON.parse makes one), at the top or in an embedded object. */
const withProtoKey = (item: Record<string, unknown>, where: string | null) => {
  const proto = () => JSON.parse('{"__proto__":{"x":1}}') as Record<string, unknown>
  if (!where) return Object.assign(proto(), item)
  return { ...item, [where]: Object.assign(proto(), item[where]) }
}

describe('asIsCheck: an item that reads as itself is kept as it came', () => {
  const link = {
    id: 'l1',
    user: {},
    agent: {},
    agentId: 'a1',
    document: {},
    documentId: 'd1',
    createdAt: at
  }
  const all: [string, z.ZodType, Record<string, unknown>][] = [
    ...examples,
    ['agent-document link', AgentDocument, link]
  ]
  for (const [what, schema, example] of all) {
    const asIs = asIsCheck(schema)

    it(`a ${what} as the service sends it reads as itself`, () => {
      expect(asIs).toBeTypeOf('function')
      const item = served(example)
      expect(asIs?.(item)).toBe(true)
      expect(schema.parse(item)).toStrictEqual(item)
    })

    it(`a ${what} it keeps is one the schema reads as the same value`, () => {
      fc.assert(
        fc.property(mutated(served(example)), (item) => {
          if (asIs?.(item)) expect(isDeepStrictEqual(schema.parse(item), item)).toBe(true)
        }),
        { numRuns: 400 }
      )
    })

    it(`a ${what} with an own __proto__ key, or not a plain object, is read by zod`, () => {
      const item = served(example)
      for (const where of [null, ...Object.keys(item).filter((k) => k === 'user' || k === 'llm')]) {
        const odd = withProtoKey(item, where)
        expect(Object.hasOwn(where ? (odd[where] as object) : odd, '__proto__')).toBe(true)
        expect(asIs?.(odd)).toBe(false)
      }
      expect(asIs?.(Object.assign(Object.create(null), item))).toBe(false)
      expect(asIs?.([item])).toBe(false)
    })
  }

  it('odd values are left to zod: a number id, an empty id, a lower-case colour, a null tag', () => {
    const asIs = asIsCheck(Agent)
    const agent = served(examples[0]?.[2] as Record<string, unknown>)
    const tags = agent.tags as Record<string, unknown>[]
    expect(asIs?.({ ...agent, id: 7 })).toBe(false)
    expect(asIs?.({ ...agent, id: '' })).toBe(false)
    expect(asIs?.({ ...agent, tags: [{ ...tags[0], color: '#a1b2c3' }] })).toBe(false)
    expect(asIs?.({ ...agent, tags: [...tags, null] })).toBe(false)
    expect(asIs?.({ ...agent, name: null })).toBe(false)
    expect(asIs?.({ ...agent, llm: { provider: 1 } })).toBe(false)
    // Unknown fields, and fields left out, are kept as they are by zod too.
    expect(asIs?.({ ...agent, extra: { deep: [1] }, name: undefined })).toBe(true)
  })
})
