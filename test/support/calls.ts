/** Transport calls the tests make as the endpoints would (api/transport.ts `Call`). */
import type { Call } from '../../src/main/api/transport'

/** `GET /agents`, the list of agents. */
export const AGENTS_LIST: Call = {
  op: 'agents.list',
  method: 'GET',
  path: '/agents',
  auth: true,
  scope: 'collection',
  what: 'agent'
}
