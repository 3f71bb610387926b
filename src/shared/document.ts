import { z } from 'zod'
import { DocumentType, Embedded, JsonObject, StrictId, StrictTimestamp, tolerantObject } from './common'

export const DocumentStrict = z.object({
  id: StrictId,
  userId: StrictId,
  user: Embedded,
  name: z.string(),
  type: DocumentType,
  url: z.string(),
  from_page: z.number().int().nullable(),
  to_page: z.number().int().nullable(),
  metadata: JsonObject,
  authorization: JsonObject.nullable(),
  splitter: JsonObject.nullable(),
  createdAt: StrictTimestamp,
  updatedAt: StrictTimestamp,
  index: z.null(),
  Agent: z.null()
})
export type DocumentStrict = z.infer<typeof DocumentStrict>

export const Document = tolerantObject({
  userId: z.string(),
  user: z.looseObject({}),
  name: z.string(),
  type: z.string(),
  url: z.string(),
  from_page: z.number().nullable(),
  to_page: z.union([z.number(), z.string()]).nullable(),
  metadata: JsonObject,
  authorization: JsonObject.nullable(),
  splitter: JsonObject.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  index: z.unknown(),
  Agent: z.unknown()
})
export type Document = z.infer<typeof Document>

export const DocumentName = z.string().trim().min(1, 'Enter a name').max(200, 'At most 200 characters')

export const DocumentUrl = z
  .string()
  .trim()
  .min(1, 'Enter a URL')
  .max(2048)
  .refine((v) => {
    try {
      const u = new URL(v)
      return u.protocol === 'http:' || u.protocol === 'https:'
    } catch {
      return false
    }
  }, 'Enter a public http(s) URL')

const Page = z.number().int('Whole pages only').min(1, 'Pages start at 1')

/** POST /documents (decisions.md: from_page, to_page, metadata). */
export const DocumentCreate = z
  .object({
    name: DocumentName,
    type: DocumentType,
    url: DocumentUrl,
    from_page: Page.nullable().optional(),
    to_page: z
      .union([Page, z.string().regex(/^\d+$/, 'Whole pages only').transform(Number)])
      .nullable()
      .optional(),
    authorization: JsonObject.nullable().optional(),
    splitter: JsonObject.nullable().optional(),
    metadata: JsonObject.optional()
  })
  .superRefine((v, ctx) => {
    if (v.from_page != null && v.to_page != null && Number(v.to_page) < v.from_page) {
      ctx.addIssue({ code: 'custom', path: ['to_page'], message: 'Last page comes before the first page' })
    }
  })
export type DocumentCreate = z.input<typeof DocumentCreate>

/** PATCH /documents/{id}. */
export const DocumentUpdate = z.object({ name: DocumentName })
export type DocumentUpdate = z.input<typeof DocumentUpdate>
