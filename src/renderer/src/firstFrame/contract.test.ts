import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { FIRST_FRAME_LAYOUT_KEY } from './contract'

describe('first frame contract', () => {
  const shell = readFileSync(new URL('./shell.ts', import.meta.url), 'utf8')

  it('the first frame reads the layout under the key the app writes', () => {
    expect(shell).toContain(`const LAYOUT_KEY = '${FIRST_FRAME_LAYOUT_KEY}'`)
  })

  it('the first frame imports types only (it is built as a plain script)', () => {
    const imports = [...shell.matchAll(/^import\s+(type\s+)?/gm)]
    expect(imports.length).toBeGreaterThan(0)
    expect(imports.every((m) => m[1])).toBe(true)
  })
})
