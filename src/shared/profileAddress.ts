/**
 * Which server addresses a profile may have (decisions.md "Authentication"): plain `http://` only
 * for this computer (127.0.0.0/8, ::1, localhost); anything else needs `https://`, or the
 * profile's explicit "insecure connection" opt-in, which the profile list then shows in red.
 */
export const CLEARTEXT_MESSAGE =
  'Plain http:// sends your password and session unencrypted: use https://, or tick “Insecure connection”. (http:// is fine for this computer: 127.0.0.1, localhost.)'

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '')
  if (h === 'localhost' || h === '[::1]' || h === '::1') return true
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h)
  return !!m && Number(m[1]) === 127 && m.slice(2).every((x) => Number(x) <= 255)
}

/** True when the address may be used: https, loopback http, or http with the opt-in. */
export function addressAllowed(baseUrl: string, insecure: boolean | undefined): boolean {
  let u: URL
  try {
    u = new URL(baseUrl.trim())
  } catch {
    return true // not an address at all: the address check says so
  }
  if (u.protocol !== 'http:') return true
  return insecure === true || isLoopbackHost(u.hostname)
}
