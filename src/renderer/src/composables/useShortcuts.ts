/**
 * The app's key handler, installed once by the shell: matches key presses against the one shortcut
 * table (src/shared/shortcuts.ts) and runs what they mean. Shortcuts that are menu commands run
 * through the same code as the menu (in Electron the menu catches their keys first, so a press
 * never runs twice). Plain keys (↑, ↓, Enter, Delete, Esc, `/`) act only when the focus is not in
 * a field and no dialog is open.
 */
import { onScopeDispose } from 'vue'
import type { Router } from 'vue-router'
import { shortcutFor } from '../../../shared/shortcuts'
import { runMenuCommand } from './useMenuCommands'
import { activeList } from './useListKeys'

export const isMac = (): boolean =>
  typeof navigator !== 'undefined' && /Mac|iPhone|iPad/i.test(navigator.platform)

function isField(el: EventTarget | null): boolean {
  if (!(el instanceof HTMLElement)) return false
  return (
    el.isContentEditable || el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT'
  )
}

/** A dialog or popup menu is open: plain keys belong to it (the link palette's drawer is not modal). */
const dialogOpen = (): boolean =>
  !!document.querySelector('.n-modal, .n-dialog, .n-popselect-menu, .n-base-select-menu, [data-palette]')

/** Focuses the list filter of the page on screen; true when there is one. */
export function focusFilter(): boolean {
  const input = document.querySelector<HTMLInputElement>('[data-testid="list-filter"]')
  input?.focus()
  input?.select()
  return !!input
}

export function handleKey(e: KeyboardEvent, router: Router): boolean {
  if (e.defaultPrevented || e.isComposing) return false
  const inField = isField(e.target)
  const s = shortcutFor(e, isMac(), inField)
  if (!s) return false
  if (s.command) {
    void runMenuCommand(s.command, router)
    return true
  }
  if (s.id === 'filter') return focusFilter()
  if (inField || dialogOpen()) return false
  const list = activeList.value
  switch (s.id) {
    case 'up':
    case 'down':
      if (!list) return false
      list.move(s.id === 'up' ? -1 : 1)
      return true
    case 'open': {
      // Enter on a row or button does what that element does; on the page it opens the active item.
      const t = e.target as HTMLElement | null
      if (!list || (t && t !== document.body && !t.matches('[role="listbox"]'))) return false
      list.openActive()
      return true
    }
    case 'close':
      if (!list) return false
      list.close()
      return true
    case 'delete': {
      const del = document.querySelector<HTMLButtonElement>(
        '[data-detail-pane] [data-testid="delete-button"]'
      )
      if (!del || del.disabled) return false
      del.click()
      return true
    }
  }
  return false
}

export function useShortcuts(router: Router): void {
  const onKey = (e: KeyboardEvent) => {
    if (handleKey(e, router)) e.preventDefault()
  }
  window.addEventListener('keydown', onKey)
  onScopeDispose(() => window.removeEventListener('keydown', onKey))
}
