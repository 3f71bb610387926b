import { defineStore } from 'pinia'
import type { ApiToken, ApiTokenCreate, ApiTokenView } from '../../../shared/apiToken'
import { maskToken } from '../../../shared/values'
import type { Read, Write } from '../../../shared/ipc'
import { desk } from '../desk'
import { useResourceStore } from '../composables/useResourceStore'

/** A token as the store keeps it: never the value, only a masked preview. */
export interface TokenRow {
  id: string
  description: string
  createdAt: string | null
  tokenPreview: string | null
}

const str = (v: unknown): string | null =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null

/** Normalises what main sends (ApiTokenView, tolerant) into a row. */
export function toTokenRow(v: ApiTokenView): TokenRow {
  return {
    id: str(v.id) ?? '',
    description: str(v.description) ?? '',
    createdAt: str(v.createdAt),
    tokenPreview: str(v.tokenPreview)
  }
}

/** The row for a token the user just made (its value is not kept). */
export function rowFromCreated(t: ApiToken): TokenRow {
  return {
    id: t.id,
    description: t.description ?? '',
    createdAt: t.createdAt ?? null,
    tokenPreview: maskToken(t.token)
  }
}

/**
 * API tokens, fed only through `window.agentDesk.apiTokens`. The store holds masked previews only:
 * `create` hands the new value back to its caller once, and `reveal` fetches it on demand.
 */
export const useApiTokensStore = defineStore('apiTokens', () => {
  const s = useResourceStore<TokenRow, ApiTokenView>({
    resource: 'apiTokens',
    list: (input) => desk().apiTokens.list(input),
    view: (r) => ({
      ...r,
      data: Array.isArray(r.data) ? r.data.map(toTokenRow).filter((t) => t.id !== '') : []
    })
  })

  async function get(id: string, cacheOnly = false): Promise<Read<TokenRow>> {
    const r = await desk().apiTokens.get({ id, cacheOnly })
    const row = toTokenRow(r.data)
    if (row.id) s.list.upsert(row)
    return { ...r, data: row }
  }

  /** Creates a token; the answer carries the value, which the caller shows once. */
  async function create(input: ApiTokenCreate): Promise<Write<ApiToken>> {
    const r = await desk().apiTokens.create(input)
    if (r.data && r.data.id) s.list.upsert(rowFromCreated(r.data))
    return r
  }

  async function reveal(id: string): Promise<string> {
    const r = await desk().apiTokens.reveal({ id })
    return r.token
  }

  const remove = (id: string): Promise<Write<null>> => s.removed(id, () => desk().apiTokens.delete({ id }))

  return { ...s.state, get, create, reveal, remove, delete: remove }
})
