// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import { effectScope, nextTick } from 'vue'
import { createMemoryHistory, createRouter, type RouteRecordRaw } from 'vue-router'
import { isMenuCommandEvent, MENU_COMMANDS } from '../../../shared/menu'
import { onCreateRequest } from './createRequests'
import { effectiveTheme, themePreference } from './theme'
import { aboutOpen, runMenuCommand } from './useMenuCommands'

const Page = { template: '<div />' }
function router(extra: RouteRecordRaw[] = [], signedIn = true) {
  const r = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/signin', component: Page },
      { path: '/agents/:id?', component: Page },
      { path: '/documents/:id?', component: Page },
      { path: '/tags', component: Page },
      ...extra
    ]
  })
  r.beforeEach((to) => (signedIn || to.path === '/signin' ? true : '/signin'))
  return r
}

beforeEach(() => {
  localStorage.clear()
  aboutOpen.value = false
})

describe('menu commands in the renderer', () => {
  it('New …: goes to the page, whose create form opens (now, or when the page registers)', async () => {
    const r = router()
    await r.push('/agents/a1')
    const scope = effectScope()
    const opened: string[] = []
    scope.run(() => onCreateRequest('/agents', () => opened.push('agents')))

    await runMenuCommand('new.agent', r)
    await nextTick()
    expect(r.currentRoute.value.path).toBe('/agents')
    expect(opened).toEqual(['agents'])

    // Documents' page registers only after the navigation (a lazy view): the request waits for it.
    await runMenuCommand('new.document', r)
    expect(r.currentRoute.value.path).toBe('/documents')
    scope.run(() => onCreateRequest('/documents', () => opened.push('documents')))
    await nextTick()
    expect(opened).toEqual(['agents', 'documents'])
    scope.stop()
  })

  it('signed out: the sign-in screen shows and no create request is left for later', async () => {
    const r = router([], false)
    await r.push('/signin')
    await runMenuCommand('new.document', r)
    expect(r.currentRoute.value.path).toBe('/signin')
    const scope = effectScope()
    let opened = false
    scope.run(() => onCreateRequest('/documents', () => (opened = true)))
    await nextTick()
    expect(opened).toBe(false)
    scope.stop()
  })

  it('Theme: sets and keeps the preference; "system" follows the OS', async () => {
    const r = router()
    await runMenuCommand('theme.dark', r)
    expect(themePreference.value).toBe('dark')
    expect(localStorage.getItem('agent-desk:theme')).toBe('dark')
    expect(effectiveTheme(themePreference.value, 'light')).toBe('dark')
    await runMenuCommand('theme.system', r)
    expect(localStorage.getItem('agent-desk:theme')).toBeNull()
    expect(effectiveTheme(themePreference.value, 'dark')).toBe('dark')
    expect(effectiveTheme(themePreference.value, 'light')).toBe('light')
    expect(effectiveTheme(themePreference.value, null)).toBe('light')
  })

  it('Settings opens its page when the app has one, and is ignored otherwise', async () => {
    const without = router()
    await without.push('/agents')
    await runMenuCommand('app.settings', without)
    expect(without.currentRoute.value.path).toBe('/agents')
    const withSettings = router([{ path: '/settings', name: 'settings', component: Page }])
    await withSettings.push('/agents')
    await runMenuCommand('app.settings', withSettings)
    expect(withSettings.currentRoute.value.path).toBe('/settings')
  })

  it('About opens the About dialog', async () => {
    await runMenuCommand('app.about', router())
    expect(aboutOpen.value).toBe(true)
  })

  it('acts only on a well-formed event', () => {
    for (const command of MENU_COMMANDS) expect(isMenuCommandEvent({ command })).toBe(true)
    for (const bad of [
      null,
      'new.agent',
      {},
      { command: 'rm -rf' },
      { command: 'new.agent', extra: 1 },
      [],
      { command: 1 }
    ])
      expect(isMenuCommandEvent(bad), JSON.stringify(bad)).toBe(false)
  })
})
