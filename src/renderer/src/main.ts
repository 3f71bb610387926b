import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import { router } from './router'
import { useSessionStore } from './stores/session'

const app = createApp(App)
const pinia = createPinia()
app.use(pinia)

router.beforeEach(async (to) => {
  const session = useSessionStore(pinia)
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
app.mount('#app')
