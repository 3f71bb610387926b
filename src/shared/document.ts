import { z } from 'zod'
import { DocumentType, isHttpUrl, JsonObject } from './common'
import {
  field,
  isNumber,
  isString,
  json,
  jsonOrNull,
  nameText,
  oneOf,
  orNull,
  owned,
  reserved,
  resourceSchemas,
  stamps,
  text
} from './fields'

export const { strict: DocumentStrict, tolerant: Document } = resourceSchemas({
  ...owned,
  name: text,
  type: oneOf(DocumentType),
  url: text,
  from_page: field(z.number().int().nullable(), z.number().nullable(), orNull(isNumber)),
  to_page: field(
    z.number().int().nullable(),
    z.union([z.number(), z.string()]).nullable(),
    orNull((v) => isNumber(v) || isString(v))
  ),
  metadata: json,
  authorization: jsonOrNull,
  splitter: jsonOrNull,
  ...stamps,
  index: reserved,
  Agent: reserved
})
export type DocumentStrict = z.infer<typeof DocumentStrict>
export type Document = z.infer<typeof Document>

export const DocumentName = nameText(200)

export const DocumentUrl = z
  .string()
  .trim()
  .min(1, 'Enter a URL')
  .max(2048)
  .refine(isHttpUrl, 'Enter a public http(s) URL')

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
