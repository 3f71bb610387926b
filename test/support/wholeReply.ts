/**
 * A reply with its long list gathered (src/main/answerPieces.ts): the test kits' `call` hands tests
 * the whole value, as the preload's window API does. Failures of `answers.next` come back as such.
 */
import type { IpcReply } from '../../src/shared/ipc'

/** The items of a list main sent as text (JsonParts), in order, as the window API reads them. */
export function itemsOfJson(parts: readonly string[]): unknown[] {
  return parts.flatMap((part) => JSON.parse(part) as unknown[])
}

export async function wholeReply(
  reply: IpcReply<unknown>,
  invoke: (channel: string, input: unknown) => Promise<IpcReply<unknown>>
): Promise<IpcReply<unknown>> {
  if (reply.ok && reply.json) {
    const { json: parts, ...rest } = reply
    return wholeReply({ ...rest, value: { ...(reply.value as object), data: itemsOfJson(parts) } }, invoke)
  }
  if (!reply.ok || !reply.more) return reply
  const data = (reply.value as { data: unknown[] }).data
  for (;;) {
    const next = await invoke('answers.next', { id: reply.more.id })
    if (!next.ok) return next
    const piece = next.value as {
      items?: unknown[]
      json?: string[]
      done: boolean
      first?: string[]
      gone?: string[]
    }
    const items = piece.json ? itemsOfJson(piece.json) : (piece.items ?? [])
    for (const item of items) data.push(item)
    if (!piece.done) continue
    // Amended as it ended (a list that left main as it came: PieceAmends), as the window API does.
    const gone = new Set(piece.gone ?? [])
    const kept = data.filter((item) => !gone.has((item as { id: string }).id))
    const whole = [...itemsOfJson(piece.first ?? []), ...kept]
    return { ok: true, value: { ...(reply.value as object), data: whole } }
  }
}
