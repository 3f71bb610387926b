// @vitest-environment happy-dom
/**
 * "Restore from backup" in Settings, over the real app core (Local workspace): after the database
 * was found damaged, the section says so, lists the backups and restores the chosen one.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { defineComponent, h } from 'vue'
import { NPopconfirm } from 'naive-ui'
import FeedbackHost from '../../layouts/FeedbackHost.vue'
import { deskApiOver, tempDir, testCore } from '../../../../../test/support/mainCore'
import { cleanedAfterEach } from '../../../../../test/support/componentCores'
import BackupSection from './BackupSection.vue'

const { cores, wrappers } = cleanedAfterEach()

async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 15_000
  while (!check() && Date.now() < end) {
    await flushPromises()
    await new Promise((r) => setTimeout(r, 10))
  }
  if (!check()) throw new Error(`Timed out waiting for ${what}`)
}

describe('BackupSection', () => {
  it('tells about a damaged database and restores a backup', async () => {
    const userDataDir = tempDir()
    const first = testCore({ userDataDir })
    await first.call('session.startLocal')
    await first.call('agents.create', { name: 'Precious', type: 'REACT', llm: { provider: 'p', model: 'm' } })
    await first.core.dispose()
    const second = testCore({ userDataDir })
    await second.call('session.startLocal') // backs up the database holding the agent
    await second.core.dispose()
    writeFileSync(join(userDataDir, 'local-workspace', 'service.db'), 'not a database '.repeat(500))

    const t = testCore({ userDataDir })
    cores.push(t)
    await t.call('session.startLocal')
    window.agentDesk = deskApiOver(t)
    const w = mount(defineComponent({ render: () => h('div', [h(FeedbackHost), h(BackupSection)]) }), {
      attachTo: document.body
    })
    wrappers.push(w)
    await until(() => w.find('[data-testid="settings-backup"]').exists(), 'the backups')
    expect(w.find('[data-testid="settings-backups-damage"]').text()).toMatch(/not a database/)
    expect(w.find('[data-testid="settings-backups-damage"]').text()).toMatch(/restore it below/)

    w.findComponent(NPopconfirm).vm.$emit('positive-click')
    await until(() => w.find('[data-testid="settings-backups-restored"]').exists(), 'the restore')
    expect(w.find('[data-testid="settings-backups-damage"]').exists()).toBe(false)
    const agents = await t.call('agents.list')
    expect(agents.data.map((a) => a.name)).toEqual(['Precious'])
  })
})
