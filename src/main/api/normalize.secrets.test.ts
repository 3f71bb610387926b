/**
 * Property: whatever error answer a server builds around the request's token (in the status text,
 * any field of any error shape, split over FastAPI `loc` parts, cut by the 300-character limit),
 * the AppError made from it never spells the token. (The same path end to end, through a real
 * echoing proxy and the core: src/main/tokenEcho.test.ts.)
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { failureFromResponse, parseBody } from './normalize'
import type { RawResponse } from './http'

const segment = fc.stringMatching(/^[A-Za-z0-9_-]{6,24}$/)
/** JWT-shaped tokens (dots inside) and plain ones. */
const tokenArb = fc.oneof(
  fc.tuple(segment, segment, segment).map(([a, b, c]) => `eyJ${a}.${b}.${c}`),
  fc.stringMatching(/^[A-Za-z0-9._~+/=-]{16,64}$/)
)

function texts(token: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ maxLength: 40 }),
    fc
      .tuple(fc.string({ maxLength: 400 }), fc.string({ maxLength: 40 }))
      .map(([before, after]) => `${before}${token}${after}`),
    fc.constantFrom(`Bearer ${token}`, `Authorization: Bearer ${token}; Autorization: Bearer ${token}`)
  )
}

function bodies(token: string): fc.Arbitrary<unknown> {
  const s = texts(token)
  const parts = token.split('.')
  return fc.oneof(
    fc.record({
      success: fc.constant(false),
      data: fc.constant(null),
      error: fc.record({
        code: s,
        message: s,
        details: fc.array(fc.record({ field: s, message: s }), { maxLength: 4 })
      })
    }),
    fc.record({ detail: s }),
    fc.record({
      detail: fc.array(
        fc.record({
          loc: fc.oneof(fc.array(s, { maxLength: 3 }), fc.constant(['body', ...parts])),
          msg: s,
          type: fc.constant('value_error')
        }),
        { maxLength: 4 }
      )
    }),
    fc.record({ message: s, error: s }),
    fc.record({ success: fc.constant(false), message: s, data: s })
  )
}

describe('an error answer never spells the request token', () => {
  it('masks it whatever the status, status text, shape and fields', () => {
    fc.assert(
      fc.property(
        tokenArb.chain((token) =>
          fc.record({
            token: fc.constant(token),
            status: fc.integer({ min: 200, max: 599 }),
            statusText: fc.oneof(fc.constant(''), texts(token)),
            json: fc.boolean(),
            body: bodies(token),
            text: texts(token)
          })
        ),
        ({ token, status, statusText, json, body, text }) => {
          const raw: RawResponse = {
            status,
            statusText,
            headers: {
              'content-type': json ? 'application/json' : 'text/plain',
              'x-echo': `Bearer ${token}`
            },
            body: Buffer.from(json ? JSON.stringify(body) : text)
          }
          const err = failureFromResponse(raw, parseBody(raw), { host: 'h', what: 'agent', secrets: [token] })
          expect(JSON.stringify(err.toData())).not.toContain(token)
          expect(err.message).not.toContain(token)
        }
      ),
      { numRuns: 400 }
    )
  })
})
