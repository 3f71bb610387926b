import type { Tool, ToolUpdate } from '../../../shared/tool'
import { TOOL_TYPES } from '../../../shared/values'
import { useToolsStore } from '../stores/tools'
import { field, namedResource, typedList } from './define'
import type { DetailDescriptor, FormField, ResourceDescriptor } from './types'

/** Tools: list with type filter; creating and deleting are extras a server may not offer. */
export const tools: ResourceDescriptor<Tool, ToolUpdate> = {
  ...namedResource('tool'),
  useStore: useToolsStore,
  ...typedList<Tool>(TOOL_TYPES, 'tool', (d) => d.description),
  createChannel: 'tools.create',
  // The create form always sends name and type (validated with ToolCreate).
  create: (input) =>
    useToolsStore().create({ ...input, name: input.name ?? '', type: input.type ?? 'SEARCH' })
}

type ToolType = (typeof TOOL_TYPES)[number]
const isToolType = (v: unknown): v is ToolType =>
  typeof v === 'string' && (TOOL_TYPES as readonly string[]).includes(v)

/** The key of one of the form's messages (locales/<locale>/resources.json). */
const k = (key: string) => `resources.tool.form.${key}`
/** The tool form's fields (validated with ToolCreate / ToolUpdate); `metadata` is edited as JSON. */
export const toolFields: readonly FormField[] = [
  field({ key: 'name', kind: 'text', row: 1 }, { label: k('name'), placeholder: k('namePlaceholder') }),
  field(
    { key: 'type', kind: 'select', options: TOOL_TYPES, row: 1, narrow: true },
    { label: k('type'), placeholder: k('typePlaceholder') }
  ),
  field(
    { key: 'description', kind: 'textarea', rows: { min: 2, max: 6 } },
    { label: k('description'), placeholder: k('descriptionPlaceholder') }
  ),
  field(
    { key: 'metadata', kind: 'json', rows: 8 },
    { label: k('metadata'), invalidJson: k('invalidJson'), invalidJsonHint: k('invalidJsonHint') }
  )
]

/** The tool form's model: a new tool is a SEARCH tool; a type the app does not know is left unset. */
export function toolModel(t: Tool | null) {
  return {
    name: t?.name ?? '',
    type: t ? (isToolType(t.type) ? t.type : undefined) : 'SEARCH',
    description: t?.description ?? '',
    metadata: t?.metadata ?? {}
  }
}

export const toolPane: DetailDescriptor = {
  testid: 'tool',
  noun: 'tool',
  plural: 'tools',
  path: '/tools',
  deleteChannel: 'tools.delete',
  confirmNote: true,
  dates: true
}
