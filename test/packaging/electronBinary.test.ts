/**
 * e2e/support/electronBinary.ts decides whether Playwright also runs the specs through its Electron
 * launcher (hosted CI, a user's machine) or through the web harness only (our machines). Checked
 * against temporary folders shaped like the electron package.
 */
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { electronBinary } from '../../e2e/support/electronBinary'

let dir = ''
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agent-desk-electron-pkg-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** What the electron package's installer leaves behind: dist/<binary> and path.txt naming it. */
async function installed(relative: string, writePathTxt = true): Promise<string> {
  const bin = join(dir, 'dist', relative)
  await mkdir(join(bin, '..'), { recursive: true })
  await writeFile(bin, '#!/bin/sh\n')
  await chmod(bin, 0o755)
  if (writePathTxt) await writeFile(join(dir, 'path.txt'), relative)
  return bin
}

describe('electronBinary', () => {
  it('finds the binary path.txt names (Linux, Windows and macOS layouts)', async () => {
    for (const relative of ['electron', 'electron.exe', 'Electron.app/Contents/MacOS/Electron']) {
      await rm(dir, { recursive: true, force: true })
      await mkdir(dir)
      const bin = await installed(relative)
      expect(electronBinary(dir, {})).toBe(bin)
    }
  })

  it('is null when nothing was downloaded (no path.txt), as on our machines', async () => {
    await installed('electron', false)
    expect(electronBinary(dir, {})).toBeNull()
    expect(electronBinary(join(dir, 'no-such-package'), {})).toBeNull()
  })

  it('is null when path.txt names a binary that is missing or empty, or a folder', async () => {
    await writeFile(join(dir, 'path.txt'), 'electron')
    expect(electronBinary(dir, {})).toBeNull()
    await writeFile(join(dir, 'path.txt'), '  \n')
    expect(electronBinary(dir, {})).toBeNull()
    await mkdir(join(dir, 'dist', 'electron'), { recursive: true })
    await writeFile(join(dir, 'path.txt'), 'electron')
    expect(electronBinary(dir, {})).toBeNull()
  })

  it('is null when AGENT_DESK_E2E_ELECTRON=0 turns the Electron project off, even with a binary', async () => {
    const bin = await installed('electron')
    expect(electronBinary(dir, { AGENT_DESK_E2E_ELECTRON: '0' })).toBeNull()
    expect(electronBinary(dir, { AGENT_DESK_E2E_ELECTRON: '1' })).toBe(bin)
  })

  it('tolerates the trailing newline an installer may write', async () => {
    const bin = await installed('electron')
    await writeFile(join(dir, 'path.txt'), 'electron\n')
    expect(electronBinary(dir, {})).toBe(bin)
  })

  it('defaults to this project’s node_modules/electron and the process environment', () => {
    expect(electronBinary()).toBe(
      electronBinary(join(process.cwd(), 'node_modules', 'electron'), process.env)
    )
  })
})
