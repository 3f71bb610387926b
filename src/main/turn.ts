/**
 * The event loop free for a turn (an immediate): main's long work (a list's validation, planning
 * and writing, masking, a piece of an answer) awaits this between its steps, so that what else
 * waits (an IPC message, a timer, a page that arrived) runs in between.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))
