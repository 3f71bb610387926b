import { describe, expect, it } from 'vitest'
import { VIEW_ORDER } from '../../shared/shortcuts'
import { MENU_COMMANDS } from '../../shared/menu'
import { externalOpenDecision } from '../security'
import {
  buildMenuTemplate,
  flattenMenu,
  HELP_LINKS,
  normalizeAccelerator,
  type MenuItemSpec,
  type MenuOptions
} from './menu'

const PLATFORMS = ['darwin', 'win32', 'linux'] as const
const opts = (platform: string, isDev = false): MenuOptions => ({
  platform,
  isDev,
  appName: 'Agent Desk',
  links: HELP_LINKS
})
const labels = (items: MenuItemSpec[]) => items.map((i) => i.label)
const leaves = (t: MenuItemSpec[]) => flattenMenu(t).filter((i) => !i.submenu)
const menu = (t: MenuItemSpec[], label: string) => {
  const m = t.find((i) => i.label?.replace('&', '') === label)
  if (!m?.submenu) throw new Error(`no ${label} menu`)
  return m.submenu
}

describe('application menu template', () => {
  for (const platform of PLATFORMS) {
    for (const isDev of [false, true]) {
      describe(`${platform}${isDev ? ' (dev)' : ''}`, () => {
        const t = buildMenuTemplate(opts(platform, isDev))

        it('every leaf item has a role, a command, or is a separator', () => {
          for (const item of leaves(t)) {
            const kinds = [item.role !== undefined, item.command !== undefined, item.type === 'separator']
            expect(kinds.filter(Boolean), JSON.stringify(item)).toHaveLength(1)
          }
        })

        it('accelerators are unique', () => {
          const seen = new Map<string, string>()
          for (const item of flattenMenu(t)) {
            if (!item.accelerator) continue
            const key = normalizeAccelerator(item.accelerator, platform)
            expect(seen.get(key), `${key}: ${item.label ?? item.role} vs ${seen.get(key)}`).toBeUndefined()
            seen.set(key, item.label ?? item.role ?? '?')
          }
          expect(seen.size).toBeGreaterThan(10)
        })

        it('renderer commands are known ones; Help links pass externalOpenDecision', () => {
          for (const item of leaves(t)) {
            if (!item.command) continue
            if (item.command.startsWith('help.')) {
              expect(item.url).toBeDefined()
              expect(externalOpenDecision(item.url).allow).toBe(true)
            } else {
              expect(MENU_COMMANDS).toContain(item.command)
              expect(item.url).toBeUndefined()
            }
          }
        })

        it('has File (new agent … tag, export, import, close), Edit roles, View zoom/full screen/theme, Window, Help', () => {
          const file = menu(t, 'File')
          expect(file.map((i) => i.command).filter(Boolean)).toEqual(
            expect.arrayContaining([
              'new.here',
              'new.agent',
              'new.document',
              'new.tool',
              'new.prompt',
              'new.tag',
              'transfer.export',
              'transfer.import'
            ])
          )
          expect(file.find((i) => i.command === 'new.here')?.accelerator).toBe('CmdOrCtrl+N')
          expect(file.some((i) => i.role === 'close')).toBe(true)
          const edit = menu(t, 'Edit').map((i) => i.role)
          expect(edit).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']))
          const view = flattenMenu(menu(t, 'View'))
          for (const role of ['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen'])
            expect(view.map((i) => i.role)).toContain(role)
          expect(view.map((i) => i.command).filter(Boolean)).toEqual([
            'palette.open',
            'shortcuts.open',
            'theme.system',
            'theme.light',
            'theme.dark'
          ])
          // Go: every view, Ctrl/Cmd+1 … 8, from the one shortcut table.
          expect(menu(t, 'Go').map((i) => [i.command, i.accelerator])).toEqual(
            VIEW_ORDER.map((v, n) => [`go.${v}`, `CmdOrCtrl+${n + 1}`])
          )
          expect(view.find((i) => i.command === 'palette.open')?.accelerator).toBe('CmdOrCtrl+K')
          expect(menu(t, 'Window').some((i) => i.role === 'minimize')).toBe(true)
          expect(
            menu(t, 'Help')
              .map((i) => i.command)
              .filter(Boolean)
          ).toEqual(expect.arrayContaining(['help.documentation', 'help.report']))
        })

        it(isDev ? 'has Reload and DevTools' : 'has no Reload or DevTools', () => {
          const roles = flattenMenu(t).map((i) => i.role)
          for (const role of ['reload', 'forceReload', 'toggleDevTools']) {
            if (isDev) expect(roles).toContain(role)
            else expect(roles).not.toContain(role)
          }
        })

        it('About and Settings each appear exactly once', () => {
          const commands = flattenMenu(t).map((i) => i.command)
          expect(commands.filter((c) => c === 'app.about')).toHaveLength(1)
          expect(commands.filter((c) => c === 'app.settings')).toHaveLength(1)
        })
      })
    }
  }

  it('macOS: the app menu (About, Settings…, Services, Hide, Hide Others, Show All, Quit) comes first', () => {
    const t = buildMenuTemplate(opts('darwin'))
    expect(labels(t)).toEqual(['Agent Desk', 'File', 'Edit', 'View', 'Go', 'Window', 'Help'])
    const app = t[0]?.submenu ?? []
    expect(app.filter((i) => i.type !== 'separator').map((i) => i.command ?? i.role)).toEqual([
      'app.about',
      'app.settings',
      'services',
      'hide',
      'hideOthers',
      'unhide',
      'quit'
    ])
    expect(app.find((i) => i.command === 'app.settings')?.accelerator).toBe('Cmd+,')
    // File has no Settings or Quit there; Window has the macOS items.
    const file = menu(t, 'File')
    expect(file.some((i) => i.role === 'quit' || i.command === 'app.settings')).toBe(false)
    expect(menu(t, 'Window').map((i) => i.role)).toEqual(['minimize', 'zoom', undefined, 'front'])
    expect(menu(t, 'Edit').some((i) => i.role === 'pasteAndMatchStyle')).toBe(true)
  })

  it('Windows and Linux: no app menu; Settings… and Quit close the File menu, About is in Help', () => {
    for (const platform of ['win32', 'linux']) {
      const t = buildMenuTemplate(opts(platform))
      expect(labels(t)).toEqual(['&File', '&Edit', '&View', '&Go', '&Window', '&Help'])
      const file = menu(t, 'File').filter((i) => i.type !== 'separator')
      expect(file.slice(-2).map((i) => i.command ?? i.role)).toEqual(['app.settings', 'quit'])
      expect(file.find((i) => i.command === 'app.settings')?.accelerator).toBe('Ctrl+,')
      expect(menu(t, 'Help').at(-1)?.command).toBe('app.about')
      expect(
        flattenMenu(t).some((i) => ['hide', 'hideOthers', 'unhide', 'services'].includes(i.role ?? ''))
      ).toBe(false)
    }
    const quit = (p: string) => flattenMenu(buildMenuTemplate(opts(p))).find((i) => i.role === 'quit')
    expect(quit('win32')?.accelerator).toBeUndefined()
    expect(quit('linux')?.accelerator).toBe('Ctrl+Q')
    const redo = (p: string) => flattenMenu(buildMenuTemplate(opts(p))).find((i) => i.role === 'redo')
    expect(redo('win32')?.accelerator).toBe('Ctrl+Y')
  })

  it('speaks the app’s language: every item labelled, the same items, keys and commands in German', () => {
    const shape = (i: MenuItemSpec) => [i.id, i.role, i.command, i.accelerator, i.type, i.url].join('|')
    for (const platform of PLATFORMS) {
      const en = flattenMenu(buildMenuTemplate(opts(platform, true)))
      const de = flattenMenu(buildMenuTemplate({ ...opts(platform, true), language: 'de' }))
      expect(de.map(shape)).toEqual(en.map(shape))
      for (const [i, item] of de.entries()) {
        if (item.type === 'separator') continue
        expect(item.label, shape(item)).toBeTruthy()
        expect(en[i]?.label, shape(item)).toBeTruthy()
      }
      // Words that differ between the languages do differ (not a copy of the English table).
      const differ = de.filter((item, i) => item.label !== undefined && item.label !== en[i]?.label)
      expect(differ.length).toBeGreaterThan(de.filter((i) => i.label).length * 0.8)
    }
    const linux = buildMenuTemplate({ ...opts('linux'), language: 'de' })
    expect(labels(linux)).toEqual(['&Datei', '&Bearbeiten', '&Ansicht', '&Gehe zu', '&Fenster', '&Hilfe'])
    // Alt mnemonics of the menu bar stay distinct.
    const letters = labels(linux).map((l) => l?.charAt((l?.indexOf('&') ?? 0) + 1).toLowerCase())
    expect(new Set(letters).size).toBe(letters.length)
    const mac = buildMenuTemplate({ ...opts('darwin'), language: 'de' })
    expect(labels(mac)).toEqual([
      'Agent Desk',
      'Datei',
      'Bearbeiten',
      'Ansicht',
      'Gehe zu',
      'Fenster',
      'Hilfe'
    ])
    expect(mac[0]?.submenu?.at(-1)?.label).toBe('Agent Desk beenden')
    expect(flattenMenu(linux).find((i) => i.command === 'go.agents')?.label).toBe('Agenten')
  })

  it('folds accelerator spellings per platform', () => {
    expect(normalizeAccelerator('Shift+CmdOrCtrl+Z', 'darwin')).toBe('cmd+shift+z')
    expect(normalizeAccelerator('CommandOrControl+Shift+Z', 'darwin')).toBe('cmd+shift+z')
    expect(normalizeAccelerator('CmdOrCtrl+Z', 'linux')).toBe('ctrl+z')
    expect(normalizeAccelerator('Control+Z', 'linux')).toBe('ctrl+z')
    expect(normalizeAccelerator('Option+Command+I', 'darwin')).toBe(
      normalizeAccelerator('Alt+Cmd+I', 'darwin')
    )
    expect(normalizeAccelerator('CmdOrCtrl++', 'win32')).toBe(normalizeAccelerator('CmdOrCtrl+Plus', 'win32'))
    // On macOS CmdOrCtrl and Ctrl are different keys.
    expect(normalizeAccelerator('CmdOrCtrl+F', 'darwin')).not.toBe(normalizeAccelerator('Ctrl+F', 'darwin'))
  })
})
