import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../support/tempDirs'
import { importCircles } from './importCircles'

const root = fileURLToPath(new URL('../..', import.meta.url))

describe('import circles', () => {
  it('finds none in src/ (static, type and dynamic imports alike)', () => {
    expect(importCircles(root, join(root, 'src'))).toEqual([])
  })

  it('finds a circle through a dynamic import and an index file, and none in a tree', () => {
    const dir = tempDir('agent-desk-circles-')
    mkdirSync(join(dir, 'store'))
    writeFileSync(join(dir, 'store', 'index.ts'), "export { cache } from './cache'\n")
    writeFileSync(
      join(dir, 'store', 'cache.ts'),
      "import type { X } from './index'\nexport const cache = 1\n"
    )
    writeFileSync(
      join(dir, 'view.vue'),
      '<script setup lang="ts">\nimport { form } from \'./form\'\n</script>\n'
    )
    writeFileSync(join(dir, 'form.ts'), "export const form = () => import('./view.vue')\n")
    writeFileSync(join(dir, 'leaf.ts'), "import { cache } from './store'\nexport const leaf = cache\n")
    writeFileSync(join(dir, 'leaf.test.ts'), "import { leaf } from './leaf'\nexport { leaf }\n")
    const circles = importCircles(dir).map((c) => [...c].sort())
    expect(circles).toHaveLength(2)
    expect(circles).toContainEqual(['store/cache.ts', 'store/index.ts'])
    expect(circles).toContainEqual(['form.ts', 'view.vue'])
  })
})
