/**
 * The one delete flow of every delete button: the question, then the item is gone at once with an
 * Undo toast for a few seconds, and only then is the request sent (online, or through the outbox
 * offline). Call in setup: `const deleteWithUndo = useDeleteWithUndo()`.
 */
import { useConfirmDelete } from '../components/common/useConfirmDelete'
import { reportWrite, useNotify } from './useErrors'
import { useUndoable } from './useUndoable'

export interface UndoableDelete {
  /** The list it leaves (`agents`, `documents`, `tags`…): the list hides it while Undo is offered. */
  kind: string
  id: string
  /** "Delete tool “Alpha”?" and the dialog's note under it (else "This cannot be undone"). */
  question: string
  note?: string | undefined
  /** The toast with Undo: "Tool “Alpha” deleted". */
  message: string
  /** Shown once the server has it. */
  doneMessage: string
  /** The outbox label when it is sent offline (outbox labels are English). */
  queuedLabel: string
  failedMessage: string
  remove: (id: string) => Promise<{ status: 'done' | 'queued' }>
  /** Once confirmed, before the item is hidden (e.g. leave its page). */
  confirmed?: () => unknown
  /** After the server (or the outbox) has it. */
  done?: () => void
  ms?: number | undefined
}

export function useDeleteWithUndo(): (d: UndoableDelete) => Promise<boolean> {
  const confirmDelete = useConfirmDelete()
  const undoable = useUndoable()
  const notify = useNotify()
  return async (d) => {
    if (!(await confirmDelete(d.question, d.note))) return false
    await d.confirmed?.()
    return undoable.later({
      kind: d.kind,
      id: d.id,
      message: d.message,
      run: () => d.remove(d.id),
      done: (w) => {
        d.done?.()
        reportWrite(notify, w, d.doneMessage, d.queuedLabel)
      },
      failed: (e) => notify.error(e, d.failedMessage),
      ms: d.ms
    })
  }
}
