/** The paths this process holds open (Linux, /proc/self/fd): a deleted file's ends in " (deleted)". */
import { readdirSync, readlinkSync } from 'node:fs'

export function heldPaths(): string[] {
  const out: string[] = []
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      out.push(readlinkSync(`/proc/self/fd/${fd}`))
    } catch {
      // closed meanwhile (the listing's own descriptor)
    }
  }
  return out
}
