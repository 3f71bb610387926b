import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Path of the Electron binary if this machine has one (a user's machine, hosted CI after
 * `install-electron`), else null. Never downloads. `AGENT_DESK_E2E_ELECTRON=0` turns the Electron
 * project off. The package dir and environment are parameters so a unit test can point them at a
 * temporary folder (test/packaging/electronBinary.test.ts).
 */
export function electronBinary(
  electronDir: string = join(process.cwd(), 'node_modules', 'electron'),
  env: NodeJS.ProcessEnv = process.env
): string | null {
  if (env.AGENT_DESK_E2E_ELECTRON === '0') return null
  const pathFile = join(electronDir, 'path.txt')
  if (!existsSync(pathFile)) return null
  const relative = readFileSync(pathFile, 'utf8').trim()
  if (relative === '') return null
  const bin = join(electronDir, 'dist', relative)
  return existsSync(bin) && statSync(bin).isFile() ? bin : null
}
