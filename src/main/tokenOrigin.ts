/**
 * The session token belongs to the origin (scheme, host, port) that issued it (decisions.md
 * "Authentication"): it is attached to no request for another origin, and changing the address of
 * a signed-in profile to another origin ends its session.
 */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url.trim())
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null
  } catch {
    return null
  }
}

export function addressChangedMessage(name: string): string {
  return `The address of “${name}” changed, so its session ended: sign in to the new address to continue.`
}
