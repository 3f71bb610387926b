import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** Path of the Electron binary if this machine has one (a user's machine), else null. Never downloads. */
export function electronBinary(): string | null {
  if (process.env.AGENT_DESK_E2E_ELECTRON === '0') return null
  const dir = join(process.cwd(), 'node_modules', 'electron')
  const pathFile = join(dir, 'path.txt')
  if (!existsSync(pathFile)) return null
  const bin = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim())
  return existsSync(bin) ? bin : null
}
