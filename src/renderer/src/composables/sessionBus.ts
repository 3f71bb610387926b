/**
 * A tiny in-renderer signal: "the signed-in identity changed" (another user or profile, or an
 * explicit sign-out). Resource lists drop what they hold so one user's data never shows for another.
 */
type Listener = () => void
const listeners = new Set<Listener>()

export function onSessionReset(cb: Listener): () => void {
  listeners.add(cb)
  return () => listeners.delete(cb)
}

export function emitSessionReset(): void {
  for (const cb of [...listeners]) cb()
}
