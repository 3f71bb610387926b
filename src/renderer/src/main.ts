import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import type { RouteLocationNormalized } from 'vue-router'
import { router } from './router'
import { useSessionStore } from './stores/session'
import { i18n, startLanguage } from './i18n'
import { installA11yFixes } from './a11yFixes'
import { endFirstFrame } from './firstFrame'

// The app's modules are evaluated (the benchmarks split a start at these marks).
performance.mark('agent-desk:app-code')

const app = createApp(App)
const pinia = createPinia()
app.use(pinia)
app.use(i18n)

/** Starts fetching the lazy view chunks of `to` now, so they load while the session is read. */
function preloadViews(to: RouteLocationNormalized): void {
  for (const record of to.matched) {
    for (const view of Object.values(record.components ?? {})) {
      if (typeof view !== 'function') continue
      try {
        void Promise.resolve((view as () => unknown)()).catch(() => undefined)
      } catch {
        // Not a lazy loader: nothing to fetch.
      }
    }
  }
}

router.beforeEach(async (to) => {
  const session = useSessionStore(pinia)
  preloadViews(to)
  try {
    await session.init()
  } catch {
    // The sign-in screen shows what went wrong.
  }
  if (to.meta.public) return true
  // A session that ended under the user keeps the page (a modal asks to sign in again).
  if (!session.signedIn && !session.reauthRequired) {
    return { path: '/signin', query: to.fullPath !== '/' ? { redirect: to.fullPath } : {} }
  }
  return true
})

app.use(router)
// The first view is chosen (the end-to-end tests wait for this mark). The first frame
// (firstFrame/shell.ts) draws the agents list; any other first view ends it.
void router.isReady().then(() => {
  performance.mark('agent-desk:first-view')
  if (router.currentRoute.value.name !== 'agents') endFirstFrame()
})
function mount(): void {
  app.mount('#app')
  installA11yFixes()
  performance.mark('agent-desk:mounted')
}
// In the last run's language from the first frame (another language than English loads first).
const language = startLanguage()
if (language) void language.then(mount)
else mount()
