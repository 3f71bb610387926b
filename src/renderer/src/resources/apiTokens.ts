import type { ApiTokenCreate } from '../../../shared/apiToken'
import { useApiTokensStore, type TokenRow } from '../stores/apiTokens'
import type { DetailDescriptor, ResourceDescriptor } from './types'
import { msg } from './define'

/** API tokens: masked previews only; the new value is shown once by the create form. */
export const apiTokens: ResourceDescriptor<TokenRow, ApiTokenCreate> = {
  path: '/api-tokens',
  noun: 'API token',
  plural: 'API tokens',
  testid: 'token',
  useStore: useApiTokensStore,
  query: { name: (t) => t.description, date: (t) => t.createdAt },
  searchByDescription: true,
  row: {
    title: (t) => t.description || msg('resources.noDescription'),
    meta: (t) => t.tokenPreview ?? '••••',
    metaCode: true
  },
  placeholderCreate: true,
  create: (input) => useApiTokensStore().create(input),
  createLabel: (input) => `Create API token “${input.description}”`,
  createEndsOnDone: true,
  detailProp: 'token',
  detailKeyed: true,
  // A token list row has everything the pane shows: only an unknown id is read.
  refreshSelected: false
}

export const tokenPane: DetailDescriptor = {
  testid: 'token',
  noun: 'token',
  plural: 'API tokens',
  path: '/api-tokens',
  deleteChannel: 'apiTokens.delete',
  confirmNote: true
}
