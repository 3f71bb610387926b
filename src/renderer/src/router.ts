import { createRouter, createWebHashHistory, type RouteRecordRaw } from 'vue-router'
// The landing view is part of the entry: a start paints it without a second round of chunk loads.
import AgentsView from './views/AgentsView.vue'

/**
 * Hash history (file:// in Electron). Every view but the landing one (agents) is a lazy chunk so
 * the entry stays small.
 * List views take an optional `:id` (the selected item, shown in the detail pane); they read it
 * with `useRoute().params.id`.
 */
export const routes: RouteRecordRaw[] = [
  { path: '/', redirect: '/agents' },
  {
    path: '/signin',
    name: 'signin',
    component: () => import('./views/SignInView.vue'),
    meta: { public: true }
  },
  { path: '/agents/:id?', name: 'agents', component: AgentsView },
  { path: '/documents/:id?', name: 'documents', component: () => import('./views/DocumentsView.vue') },
  { path: '/tools/:id?', name: 'tools', component: () => import('./views/ToolsView.vue') },
  { path: '/prompts/:id?', name: 'prompts', component: () => import('./views/PromptsView.vue') },
  { path: '/tags', name: 'tags', component: () => import('./views/TagsView.vue') },
  { path: '/api-tokens/:id?', name: 'api-tokens', component: () => import('./views/ApiTokensView.vue') },
  {
    path: '/agent-documents/:id',
    name: 'agent-document',
    component: () => import('./views/AgentDocumentView.vue')
  },
  { path: '/outbox', name: 'outbox', component: () => import('./views/OutboxView.vue') },
  { path: '/settings', name: 'settings', component: () => import('./views/SettingsView.vue') },
  { path: '/:pathMatch(.*)*', redirect: '/agents' }
]

export const router = createRouter({
  history: createWebHashHistory(),
  routes
})
