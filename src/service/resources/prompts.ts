/** Prompts: table, row mapping, routes; input_variables are derived from the template when not given. */
import { PromptCreate, PromptUpdate, scanPlaceholders, type PromptStrict } from '../../shared'
import type { Db } from '../db'
import type { LongReads } from '../reads'
import { invalid } from '../http'
import { ownedCrud, type RouteTable } from '../routes'
import { createTableSql, ownedTable, str, timeFields } from '../sql'
import type { OwnedTable, Row, TableDef } from '../sql'

const PROMPTS: TableDef = {
  table: 'prompts',
  columns: { name: 'TEXT NOT NULL', template: 'TEXT NOT NULL', input_variables: 'TEXT NOT NULL' }
}
export const migrations = { 1: createTableSql(PROMPTS) }

type PromptInput = Pick<PromptStrict, 'name' | 'template' | 'input_variables'>

export type PromptStorage = OwnedTable<PromptStrict, PromptInput>

export const promptsStorage = (db: Db, reads: LongReads | null = null): PromptStorage =>
  ownedTable(
    db,
    PROMPTS,
    {
      encode: (p) => ({ ...p, input_variables: JSON.stringify(p.input_variables) }),
      decode: mapPrompt
    },
    reads
  )

function mapPrompt(r: Row): PromptStrict {
  const vars: unknown = JSON.parse(str(r.input_variables))
  return {
    id: str(r.id),
    userId: str(r.user_id),
    name: str(r.name),
    template: str(r.template),
    input_variables: Array.isArray(vars) ? vars.map(str) : [],
    ...timeFields(r)
  }
}

function variablesOf(template: string): string[] {
  const scan = scanPlaceholders(template)
  if (scan.errors.length) throw invalid(scan.errors.map((message) => ({ field: 'template', message })))
  return scan.variables
}

export function promptRoutes(prompts: PromptStorage): RouteTable {
  return ownedCrud({
    path: '/prompts',
    what: 'Prompt',
    table: prompts,
    create: {
      schema: PromptCreate,
      input(b) {
        const derived = variablesOf(b.template)
        return { name: b.name, template: b.template, input_variables: b.input_variables ?? derived }
      }
    },
    update: {
      schema: PromptUpdate,
      input(b, current) {
        const template = b.template ?? current.template
        let vars = b.input_variables ?? current.input_variables
        if (b.template !== undefined) {
          const derived = variablesOf(template)
          if (b.input_variables === undefined) vars = derived
        }
        return { name: b.name ?? current.name, template, input_variables: vars }
      }
    }
  })
}
