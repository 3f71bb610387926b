import type { DeskApi } from '../../shared/ipc'
import { scopedApi } from './composables/callScope'

/**
 * The preload's (or the e2e harness's) `window.agentDesk`; inside a call scope
 * (composables/callScope), its calls carry ids so that the scope can cancel them.
 */
export function desk(): DeskApi {
  return scopedApi(window.agentDesk)
}
