/**
 * Closing with unsaved work: the core counts the signed-in profile's drafts (real offline store),
 * and the guard asks once per close, in the user's language, only when something is unsaved.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { testCore, type TestCore } from '../../../test/support/mainCore'
import { closeGuard, closeQuestion, CLOSE_ANYWAY, questionLanguage, type CloseQuestion } from './closeGuard'

const cores: TestCore[] = []
afterEach(async () => {
  while (cores.length) await cores.pop()?.core.dispose()
})

describe('close guard', () => {
  it('counts the drafts of the signed-in profile only', async () => {
    const t = testCore()
    cores.push(t)
    expect(t.core.unsavedDrafts()).toBe(0)
    await t.call('session.startLocal')
    await t.call('drafts.save', { key: 'tool-edit:a', value: { name: 'A' } })
    await t.call('drafts.save', { key: 'agent-create', value: { name: 'B' } })
    expect(t.core.unsavedDrafts()).toBe(2)
    await t.call('drafts.remove', { key: 'agent-create' })
    expect(t.core.unsavedDrafts()).toBe(1)
    await t.call('session.signOut', { clearCache: false })
    expect(t.core.unsavedDrafts()).toBe(0)
    expect(await t.call('drafts.save', { key: 'tool-edit:b', value: { name: 'C' } })).toEqual({ kept: false })
    expect(await t.call('drafts.list')).toEqual([])
  })

  it('asks once per close, only with unsaved work, and remembers "Close" until a new window', async () => {
    let unsaved = 0
    const asked: CloseQuestion[] = []
    let answer = 1
    const guard = closeGuard({
      unsaved: () => unsaved,
      language: () => 'en',
      ask: async (q) => {
        asked.push(q)
        await new Promise((r) => setTimeout(r, 20))
        return answer
      }
    })
    expect(await guard.confirm()).toBe(true)
    expect(asked).toHaveLength(0)

    unsaved = 2
    // The window's close and the app's quit at the same time: one question.
    expect(await Promise.all([guard.confirm(), guard.confirm()])).toEqual([false, false])
    expect(asked).toHaveLength(1)
    expect(asked[0]?.message).toBe('2 forms have unsaved changes.')
    expect(asked[0]?.buttons).toEqual(['Close', 'Keep open'])

    answer = CLOSE_ANYWAY
    expect(await guard.confirm()).toBe(true)
    expect(guard.confirmedAlready()).toBe(true)
    expect(await guard.confirm()).toBe(true)
    expect(asked).toHaveLength(2)
    guard.reset()
    answer = 1
    expect(await guard.confirm()).toBe(false)
    expect(asked).toHaveLength(3)
  })

  it('speaks the setting’s language, or the system’s when the app has it', () => {
    expect(questionLanguage('system', 'de-AT')).toBe('de')
    expect(questionLanguage('system', 'fr-FR')).toBe('en')
    expect(questionLanguage('en', 'de-DE')).toBe('en')
    expect(closeQuestion(1, 'de')?.message).toBe('Ein Formular hat ungespeicherte Änderungen.')
    expect(closeQuestion(0, 'de')).toBeNull()
  })
})
