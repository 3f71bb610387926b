import type { DeskApi } from '../../shared/ipc'

/** The preload's (or the e2e harness's) `window.agentDesk`. */
export function desk(): DeskApi {
  return window.agentDesk
}
