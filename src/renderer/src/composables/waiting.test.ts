// @vitest-environment happy-dom
/**
 * Waiting with a way out, in the window (issue 12, item 20), over the real app core and a real
 * origin-like server behind a gate that hangs on chosen requests:
 * - sign-in offers Cancel, and the Local workspace button stays usable while a server's sign-in
 *   hangs (a click cancels that one and opens the workspace);
 * - a save that runs longer than a moment offers Cancel, which aborts its request and keeps what
 *   was typed;
 * - a list with rows on screen shows a progress bar while it is fetched again.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createMemoryHistory, createRouter } from 'vue-router'
import { defineComponent, h } from 'vue'
import FeedbackHost from '../layouts/FeedbackHost.vue'
import { deskApiOver, testCore, type TestCore } from '../../../../test/support/mainCore'
import { startOriginLikeServer, ORIGIN_DEFAULT_USER } from '../../../../test/servers/originLikeServer'
import { startGateServer, type GateServer } from '../../../../test/servers/gateServer'
import SignInForm from '../components/session/SignInForm.vue'
import ToolForm from '../components/tools/ToolForm.vue'
import AgentForm from '../components/agents/AgentForm.vue'
import ResourceListPage from '../components/resource/ResourceListPage.vue'
import { tools } from '../resources/tools'
import { desk } from '../desk'
import type { Tool } from '../../../shared/tool'

const cleanup: (() => Promise<void> | void)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.()
})

async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms
  while (!check() && Date.now() < end) {
    await flushPromises()
    await new Promise((r) => setTimeout(r, 10))
  }
  if (!check()) throw new Error(`Timed out waiting for ${what}: ${document.body.textContent?.slice(0, 800)}`)
}

async function gated(): Promise<{ t: TestCore; gate: GateServer; profileId: string; toolIds: string[] }> {
  const origin = await startOriginLikeServer()
  cleanup.push(() => origin.close())
  const t = testCore({ fetchTimeoutMs: 20_000 })
  cleanup.push(() => t.core.dispose())
  const gate = await startGateServer(origin.url)
  cleanup.push(() => gate.close())
  const profile = await t.call('profiles.save', { name: 'Gated', baseUrl: gate.url })
  window.agentDesk = deskApiOver(t)
  setActivePinia(createPinia())
  return { t, gate, profileId: profile.id, toolIds: origin.toolIds }
}

function keep<T extends VueWrapper>(w: T): T {
  cleanup.push(() => w.unmount())
  return w
}

const inApp = (child: () => ReturnType<typeof h>) =>
  defineComponent({ render: () => h('div', [h(FeedbackHost), child()]) })

describe('sign-in that does not answer', () => {
  async function startHungSignIn() {
    const ctx = await gated()
    ctx.gate.hold = (r) => r.path === '/api/v1/auth/sign-in'
    const w = keep(
      mount(
        inApp(() => h(SignInForm)),
        { attachTo: document.body }
      )
    )
    // The form picks the server once the profiles are loaded.
    await until(() => w.text().includes('Gated —'), 'the server profile')
    await flushPromises()
    await w.find('[data-testid="signin-email"]').setValue(ORIGIN_DEFAULT_USER.email)
    await w.find('[data-testid="signin-password"]').setValue(ORIGIN_DEFAULT_USER.password)
    await w.find('[data-testid="signin-submit"]').trigger('click')
    await until(() => ctx.gate.held.length === 1, 'the sign-in to reach the server')
    return { ...ctx, w }
  }

  it('offers Cancel, which frees the form at once and closes the request', async () => {
    const { t, gate, w } = await startHungSignIn()
    await until(() => w.find('[data-testid="signin-cancel"]').exists(), 'the Cancel button')
    await w.find('[data-testid="signin-cancel"]').trigger('click')
    await until(() => !w.find('[data-testid="signin-cancel"]').exists(), 'the form to be free')
    expect(w.find('[data-testid="signin-submit"]').attributes('disabled')).toBeUndefined()
    expect(w.find('[data-testid="signin-error"]').exists()).toBe(false)
    await until(() => gate.held[0]?.closedAt !== null, 'the server to see the request closed', 3000)
    expect((await t.call('session.get')).status).toBe('signedOut')
  })

  it('keeps the Local workspace button usable: a click cancels the sign-in and opens the workspace', async () => {
    const { t, gate, w } = await startHungSignIn()
    const local = w.find('[data-testid="local-workspace-button"]')
    expect(local.attributes('disabled')).toBeUndefined()
    await local.trigger('click')
    await until(() => gate.held[0]?.closedAt !== null, 'the hung sign-in to be cancelled', 5000)
    await until(() => w.find('[data-testid="signin-cancel"]').exists() === false, 'the sign-in to leave')
    // The workspace opens on its own thread: the button shows its work until it has.
    const opening = () =>
      w.find('[data-testid="local-workspace-button"]').classes().includes('n-button--loading')
    await until(() => !opening(), 'the Local workspace to open')
    const after = await t.call('session.get')
    expect(after.status).toBe('signedIn')
    expect(after.profile?.kind).toBe('local')
  })
})

describe('a save that does not answer', () => {
  it('offers Cancel after a moment; Cancel aborts the request and keeps what was typed', async () => {
    const { t, gate, profileId, toolIds } = await gated()
    await t.call('session.signIn', {
      profileId,
      email: ORIGIN_DEFAULT_USER.email,
      password: ORIGIN_DEFAULT_USER.password
    })
    const tool: Tool = {
      id: toolIds[0] ?? '',
      name: 'Search',
      type: 'SEARCH',
      description: 'x',
      metadata: {}
    }
    gate.hold = (r) => r.method === 'PATCH'
    let outcome: unknown = 'pending'
    const save = (patch: unknown) =>
      desk()
        .tools.update({ id: tool.id, patch: patch as never })
        .then(
          (v) => (outcome = v),
          (e: unknown) => {
            outcome = e
            throw e
          }
        )
    const w = keep(
      mount(
        inApp(() => h(ToolForm, { save, tool })),
        { attachTo: document.body }
      )
    )
    await w.find('[data-testid="field-description"]').setValue('Finds pages')
    await w.find('[data-testid="save-button"]').trigger('click')
    await until(() => gate.held.length === 1, 'the save to reach the server')
    expect(w.find('[data-testid="save-cancel-button"]').exists()).toBe(false)
    await until(() => w.find('[data-testid="save-cancel-button"]').exists(), 'Cancel to be offered', 5000)
    await w.find('[data-testid="save-cancel-button"]').trigger('click')
    await until(() => !w.find('[data-testid="save-cancel-button"]').exists(), 'the save to end')
    expect((outcome as { kind?: string }).kind).toBe('cancelled')
    await until(() => gate.held[0]?.closedAt !== null, 'the server to see the request closed', 3000)
    const field = w.find('[data-testid="field-description"]').element as HTMLInputElement
    expect(field.value).toBe('Finds pages')
  })
})

describe('a save of the agent form that does not answer', () => {
  it('offers Cancel after a moment; Cancel aborts the create and keeps what was typed', async () => {
    const { t, gate, profileId } = await gated()
    await t.call('session.signIn', {
      profileId,
      email: ORIGIN_DEFAULT_USER.email,
      password: ORIGIN_DEFAULT_USER.password
    })
    gate.hold = (r) => r.method === 'POST' && r.path === '/api/v1/agents'
    const submit = async (payload: unknown) => {
      await desk().agents.create(payload as never)
    }
    const w = keep(
      mount(
        inApp(() => h(AgentForm, { mode: 'create', submit })),
        { attachTo: document.body }
      )
    )
    const field = (id: string) => w.find(`[data-testid="${id}"]`)
    await field('field-name').setValue('Slow agent')
    await field('field-llm-provider').setValue('openai')
    await field('field-llm-model').setValue('gpt')
    await w.find('[data-testid="save-button"]').trigger('click')
    await until(() => gate.held.length === 1, 'the create to reach the server')
    await until(() => w.find('[data-testid="save-cancel-button"]').exists(), 'Cancel to be offered', 5000)
    await w.find('[data-testid="save-cancel-button"]').trigger('click')
    await until(() => !w.find('[data-testid="save-cancel-button"]').exists(), 'the save to end')
    await until(() => gate.held[0]?.closedAt !== null, 'the server to see the request closed', 3000)
    expect((field('field-name').element as HTMLInputElement).value).toBe('Slow agent')
    expect(await t.call('outbox.list')).toEqual([])
  })
})

describe('a list with rows on screen being fetched again', () => {
  it('shows a progress bar in its header until the answer comes', async () => {
    const { t, gate, profileId } = await gated()
    await t.call('session.signIn', {
      profileId,
      email: ORIGIN_DEFAULT_USER.email,
      password: ORIGIN_DEFAULT_USER.password
    })
    await t.call('tools.list') // cached now
    const router = createRouter({
      history: createMemoryHistory(),
      routes: [{ path: '/tools/:id?', component: defineComponent({ render: () => h('div') }) }]
    })
    await router.push('/tools')
    gate.hold = (r) => r.method === 'GET' && r.path === '/api/v1/tools'
    const w = keep(
      mount(
        inApp(() => h(ResourceListPage, { resource: tools as never })),
        {
          global: { plugins: [router] },
          attachTo: document.body
        }
      )
    )
    await until(() => gate.held.length === 1, 'the list to be asked for again')
    await until(() => w.find('[data-testid="list-refreshing"]').exists(), 'the progress bar')
    expect(w.find('[data-testid="list-loading"]').exists()).toBe(false)
    expect(w.find('[data-testid="list-count"]').text()).toBe('3')
    // The answer comes: the bar goes.
    gate.hold = () => false
    await gate.close()
    await until(() => !w.find('[data-testid="list-refreshing"]').exists(), 'the bar to go')
  })
})
