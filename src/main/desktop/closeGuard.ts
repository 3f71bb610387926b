/**
 * Closing the window (or quitting) with unsaved work: the app asks first. The drafts are kept in
 * the offline store either way, so the question says where the work will be; plain Node, the
 * Electron adapter shows it with `dialog.showMessageBox`.
 */
import type { LanguageSetting } from '../../shared/settings'

export interface CloseQuestion {
  type: 'question'
  message: string
  detail: string
  /** [close, keep open] */
  buttons: [string, string]
  defaultId: 1
  cancelId: 1
}
/** The answer (button index) that closes. */
export const CLOSE_ANYWAY = 0

const TEXT = {
  en: {
    message: (n: number) => (n === 1 ? 'One form has unsaved changes.' : `${n} forms have unsaved changes.`),
    detail: 'They are kept as drafts and will be there when you open Agent Desk again.',
    buttons: ['Close', 'Keep open'] as [string, string]
  },
  de: {
    message: (n: number) =>
      n === 1
        ? 'Ein Formular hat ungespeicherte Änderungen.'
        : `${n} Formulare haben ungespeicherte Änderungen.`,
    detail: 'Sie bleiben als Entwürfe erhalten und sind beim nächsten Öffnen von Agent Desk wieder da.',
    buttons: ['Schließen', 'Geöffnet lassen'] as [string, string]
  }
}

/** The language of the question: the setting, or the system's when the app has it. */
export function questionLanguage(setting: LanguageSetting, systemLocale: string): 'en' | 'de' {
  if (setting !== 'system') return setting
  return systemLocale.toLowerCase().startsWith('de') ? 'de' : 'en'
}

/** The question to ask before closing, or null when nothing is unsaved. */
export function closeQuestion(unsaved: number, language: 'en' | 'de'): CloseQuestion | null {
  if (unsaved <= 0) return null
  const t = TEXT[language]
  return {
    type: 'question',
    message: t.message(unsaved),
    detail: t.detail,
    buttons: t.buttons,
    defaultId: 1,
    cancelId: 1
  }
}

/**
 * One answer per close: the window's `close` and the app's `before-quit` both ask `confirm()`, which
 * asks once (a question already open is shared) and, once the user chose to close, never again.
 */
export function closeGuard(opts: {
  unsaved: () => number
  language: () => 'en' | 'de'
  ask: (q: CloseQuestion) => Promise<number>
}): { confirm(): Promise<boolean>; confirmedAlready(): boolean; reset(): void } {
  let confirmed = false
  let asking: Promise<boolean> | null = null
  return {
    confirmedAlready: () => confirmed,
    /** A new window: its unsaved work is asked about again. */
    reset: () => {
      confirmed = false
    },
    confirm() {
      if (confirmed) return Promise.resolve(true)
      const q = closeQuestion(opts.unsaved(), opts.language())
      if (!q) return Promise.resolve(true)
      asking ??= opts
        .ask(q)
        .then((answer) => {
          confirmed = answer === CLOSE_ANYWAY
          return confirmed
        })
        .finally(() => {
          asking = null
        })
      return asking
    }
  }
}
