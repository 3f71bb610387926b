/**
 * Unlinking a document or a tool from an agent, the same from the agent's pane and from the link's
 * own view: the link goes at once with Undo for a few seconds, and only then is it removed (online,
 * or through the outbox offline). Undo brings it back and nothing is sent.
 */
import type { LinkItem } from '../stores/links'
import { useLinksStore } from '../stores/links'
import { reportWrite, useNotify } from './useErrors'
import { useUndoable } from './useUndoable'
import { i18n } from '../i18n'

/** The key a waiting unlink hides its link under (`removalPending(linkRemovalKind(l), l.key)`). */
export const linkRemovalKind = (l: Pick<LinkItem, 'kind'>): string =>
  l.kind === 'document' ? 'agentDocuments' : 'agentTools'

export function useUnlink() {
  const links = useLinksStore()
  const notify = useNotify()
  const undoable = useUndoable()

  const t = i18n.global.t
  /** Unlinks `item` (named: the document or tool, and the agent); resolves true once it was sent. */
  return function unlink(item: LinkItem, names: { target: string; agent: string }): Promise<boolean> {
    if (!item.id) {
      notify.error({ kind: 'not_offered', message: t('links.noLinkId') }, t('links.unlinkFailed'))
      return Promise.resolve(false)
    }
    return undoable.later({
      kind: linkRemovalKind(item),
      id: item.key,
      message: t('links.unlinked', names),
      run: () => links.unlink(item),
      done: (w) => reportWrite(notify, w, t('links.removed'), 'Remove link'),
      failed: (e) => notify.error(e, t('links.unlinkFailed'))
    })
  }
}
