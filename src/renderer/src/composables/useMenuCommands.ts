/**
 * The application menu's commands (main → renderer event `menu.command`), subscribed once in the
 * app shell: File › New … opens that page's create form, View › Theme sets the theme, Settings
 * opens its page where there is one, About opens the About dialog.
 */
import { onScopeDispose, ref } from 'vue'
import { useRouter, type Router } from 'vue-router'
import { isMenuCommandEvent, type MenuCommand } from '../../../shared/menu'
import { desk } from '../desk'
import { requestCreate } from './createRequests'
import { setThemePreference } from './theme'
import { openTransfer } from './transferDialog'

/** The About dialog is open (the shell shows it). */
export const aboutOpen = ref(false)
/** The command palette (Ctrl/Cmd+K) and the shortcut cheat-sheet (Ctrl/Cmd+/) are open. */
export const paletteOpen = ref(false)
export const cheatSheetOpen = ref(false)
/** The sign-out dialog was asked for (the palette's "Sign out…"); the shell shows it. */
export const signOutRequested = ref(false)

/** The pages with a create form ("New item" creates where the user is). */
const CREATE_PAGES = ['/agents', '/documents', '/tools', '/prompts', '/tags', '/api-tokens']

const NEW_PAGES: Partial<Record<MenuCommand, string>> = {
  'new.agent': '/agents',
  'new.document': '/documents',
  'new.tool': '/tools',
  'new.prompt': '/prompts',
  'new.tag': '/tags'
}

export async function runMenuCommand(command: MenuCommand, router: Router): Promise<void> {
  const page = NEW_PAGES[command]
  if (page) {
    const here = router.currentRoute.value.path
    if (here !== page) await router.push(page)
    // Not there (signed out: the sign-in screen): nothing is left pending for later.
    const now = router.currentRoute.value.path
    if (now === page || now.startsWith(`${page}/`)) requestCreate(page)
    return
  }
  if (command.startsWith('go.')) {
    const view = command.slice('go.'.length)
    if (router.hasRoute(view)) await router.push({ name: view })
    return
  }
  switch (command) {
    case 'new.here': {
      const here = router.currentRoute.value.path
      const page = CREATE_PAGES.find((p) => here === p || here.startsWith(`${p}/`))
      if (page) {
        if (here !== page) await router.push(page)
        requestCreate(page)
      }
      return
    }
    case 'palette.open':
      cheatSheetOpen.value = false
      paletteOpen.value = !paletteOpen.value
      return
    case 'shortcuts.open':
      paletteOpen.value = false
      cheatSheetOpen.value = !cheatSheetOpen.value
      return
    case 'theme.system':
    case 'theme.light':
    case 'theme.dark':
      setThemePreference(command.slice('theme.'.length) as 'system' | 'light' | 'dark')
      return
    case 'app.settings':
      if (router.hasRoute('settings')) await router.push({ name: 'settings' })
      return
    case 'app.about':
      aboutOpen.value = true
      return
    case 'transfer.export':
    case 'transfer.import':
      openTransfer({ kind: command === 'transfer.export' ? 'export' : 'import' })
      return
  }
}

export function useMenuCommands(): void {
  const router = useRouter()
  const api = desk()
  if (typeof api?.on !== 'function') return
  const off = api.on('menu.command', (payload) => {
    if (isMenuCommandEvent(payload)) void runMenuCommand(payload.command, router)
  })
  onScopeDispose(off)
}
