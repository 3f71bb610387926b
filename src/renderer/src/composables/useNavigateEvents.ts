import { onScopeDispose } from 'vue'
import type { Router } from 'vue-router'
import type { DeskApi } from '../../../shared/ipc'

/**
 * Main asks the window to show a route (`navigate`, e.g. a notification about the outbox was
 * clicked). Only the app's own paths are followed.
 */
export function useNavigateEvents(api: Pick<DeskApi, 'on'>, router: Pick<Router, 'push'>): void {
  const off = api.on('navigate', ({ route }) => {
    if (typeof route !== 'string' || !/^\/[a-z-]*(\/[\w-]*)?$/i.test(route)) return
    void router.push(route).catch(() => undefined)
  })
  onScopeDispose(off)
}
