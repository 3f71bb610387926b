/** The app's views as the sidebar, the Go menu's shortcuts and the palette name them. */
import type { ViewId } from '../../shared/shortcuts'

/** The message key of each view's name (nav.*). */
export const VIEW_MESSAGE: Record<ViewId, string> = {
  agents: 'nav.agents',
  documents: 'nav.documents',
  tools: 'nav.tools',
  prompts: 'nav.prompts',
  tags: 'nav.tags',
  'api-tokens': 'nav.apiTokens',
  outbox: 'nav.outbox',
  settings: 'nav.settings'
}
