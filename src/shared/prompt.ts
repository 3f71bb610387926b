import { z } from 'zod'
import { field, isString, listOf, nameText, ref, resourceSchemas, stamps, text } from './fields'

export interface PlaceholderScan {
  variables: string[]
  errors: string[]
}

/**
 * Python format-string placeholders: `{name}` (also `{name.attr}`, `{name[0]}`, `{name:fmt}`,
 * `{name!r}`), `{{` and `}}` are literal braces. Returns each variable once, in order of first use.
 */
export function scanPlaceholders(template: string): PlaceholderScan {
  const variables: string[] = []
  const errors: string[] = []
  let i = 0
  while (i < template.length) {
    const c = template[i]
    if (c === '{') {
      if (template[i + 1] === '{') {
        i += 2
        continue
      }
      const end = template.indexOf('}', i + 1)
      if (end === -1) {
        errors.push(`Unclosed "{" at position ${i + 1}`)
        break
      }
      const inner = template.slice(i + 1, end)
      const field = inner.split(/[.[:!]/, 1)[0]?.trim() ?? ''
      if (inner.includes('{')) errors.push(`Nested "{" at position ${i + 1}`)
      else if (field === '' || /^\d+$/.test(field))
        errors.push(`Placeholder at position ${i + 1} needs a name`)
      else if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field)) errors.push(`"${field}" is not a valid variable name`)
      else if (!variables.includes(field)) variables.push(field)
      i = end + 1
      continue
    }
    if (c === '}') {
      if (template[i + 1] === '}') {
        i += 2
        continue
      }
      errors.push(`Single "}" at position ${i + 1}: write "}}" for a literal brace`)
    }
    i += 1
  }
  return { variables, errors }
}

/** Names missing from / extra in a declared variable list, compared with the template. */
export function compareVariables(template: string, declared: readonly string[]) {
  const { variables } = scanPlaceholders(template)
  return {
    missing: variables.filter((v) => !declared.includes(v)),
    unused: declared.filter((v) => !variables.includes(v))
  }
}

export const { strict: PromptStrict, tolerant: Prompt } = resourceSchemas({
  userId: ref,
  name: text,
  template: text,
  input_variables: field(z.array(z.string()), z.array(z.string()), listOf(isString)),
  ...stamps
})
export type PromptStrict = z.infer<typeof PromptStrict>
export type Prompt = z.infer<typeof Prompt>

export const PromptName = nameText(200)
const Template = z.string().max(100_000, 'At most 100,000 characters')
const Variables = z
  .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'Variable names are letters, digits and _'))
  .max(200)
  .refine((v) => new Set(v).size === v.length, 'Each variable once')

export const PromptCreate = z.object({
  name: PromptName,
  template: Template,
  input_variables: Variables.optional()
})
export type PromptCreate = z.input<typeof PromptCreate>
export const PromptUpdate = z.object({
  name: PromptName.optional(),
  template: Template.optional(),
  input_variables: Variables.optional()
})
export type PromptUpdate = z.input<typeof PromptUpdate>
