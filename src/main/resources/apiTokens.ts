/**
 * API tokens: endpoints, the delete operation and IPC handlers. The renderer sees a masked
 * preview, never a value, except from create (shown once; needs the server) and reveal.
 */
import { AppError, isConnectivityError } from '../../shared/errors'
import { ApiToken, maskToken, type ApiTokenView } from '../../shared/apiToken'
import type { Read } from '../../shared/ipc'
import type { Endpoints } from '../api/endpoints'
import { nowTimestamp as now } from '../clock'
import { placeItem } from '../offline/scopes'
import type { Item } from '../offline/types'
import { listValues } from '../offline/listText'
import { api, getRoute, listRoute, plainDelete, type Lease, type Routes, type Writes } from './kit'

export function apiTokensEndpoints(e: Endpoints) {
  const what = 'API token'
  return {
    list: () => e.list('apiTokens.list', '/api-tokens', ApiToken, what),
    get: (id: string) => e.get('apiTokens.get', `/api-tokens/${e.enc(id)}`, ApiToken, what),
    create: (b: { description: string }) =>
      e.write('apiTokens.create', 'POST', '/api-tokens', { description: b.description }, ApiToken, what, {
        description: b.description
      }),
    delete: (id: string) => e.del('apiTokens.delete', `/api-tokens/${e.enc(id)}`, what)
  }
}

const tokens = (s: Lease) => apiTokensEndpoints(api(s))

type TokenViewItem = Item & { tokenPreview: string | null }

function tokenView(t: ApiToken): TokenViewItem {
  const { token, ...rest } = t
  return { ...rest, id: t.id, tokenPreview: maskToken(token) }
}

/** A cached token view never carries a value, whatever an older cache row holds. */
function stripToken<T>(t: T): T {
  if (typeof t !== 'object' || t === null) return t
  const { token: _token, ...rest } = t as Record<string, unknown>
  return rest as T
}

export const apiTokenWrites: Writes<'apiTokens.delete'> = {
  'apiTokens.delete': plainDelete('apiTokens', 'API token', (s, id) => tokens(s).delete(id), 'description')
}

const list = listRoute<TokenViewItem>('apiTokens', async (s, page) => {
  const all = await tokens(s).list()
  await page(all.map(tokenView))
})
const get = getRoute('apiTokens', async (s, id) => tokenView(await tokens(s).get(id)))

export const apiTokenReads: Routes<
  'apiTokens.list' | 'apiTokens.get' | 'apiTokens.create' | 'apiTokens.reveal'
> = {
  'apiTokens.list': async (i, ctx) => {
    const res = await list(i, ctx)
    const out: Read<ApiTokenView[]> = { ...res, data: (await listValues(res.data)).map((t) => stripToken(t)) }
    return out
  },
  'apiTokens.get': async (i, ctx) => {
    const res = await get(i, ctx)
    const out: Read<ApiTokenView> = { ...res, data: stripToken(res.data) }
    return out
  },
  'apiTokens.create': async (i, ctx) => {
    const s = await ctx.lease()
    let t: ApiToken
    try {
      t = await tokens(s).create({ description: i.description })
    } catch (e) {
      if (AppError.is(e) && isConnectivityError(e)) {
        ctx.connectivity.markOffline(e.message)
        throw new AppError({
          kind: e.kind,
          message:
            'Creating an API token needs the server: its value is shown only once. Try again when connected.'
        })
      }
      throw e
    }
    placeItem(s.cache, 'apiTokens', tokenView(t), now(), { prepend: true })
    ctx.connectivity.markOnline()
    return { status: 'done', data: t }
  },
  'apiTokens.reveal': async ({ id }, ctx) => {
    const s = await ctx.lease()
    const t = await tokens(s).get(id)
    if (!t.token)
      throw new AppError({ kind: 'not_found', message: "The server did not send this token's value" })
    return { token: t.token }
  }
}
