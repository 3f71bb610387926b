/**
 * The layer boundaries of src/ are checked, not just described: the project's real ESLint config
 * (eslint.config.js) fails code that crosses a layer, and passes code that keeps to its layer.
 */
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { ESLint, type Linter } from 'eslint'
import { beforeAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const BOUNDARY_RULES = new Set(['no-restricted-imports', 'layers/dynamic-imports'])

let eslint: ESLint
beforeAll(() => {
  eslint = new ESLint({ cwd: root })
})

async function lint(filePath: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) })
  if (!result) throw new Error(`no lint result for ${filePath}`)
  return result.messages
}

/** The boundary errors ESLint reports for `code` as if it were the file `filePath`. */
async function boundaryErrors(filePath: string, code: string): Promise<Linter.LintMessage[]> {
  const messages = await lint(filePath, code)
  const fatal = messages.filter((m) => m.fatal)
  expect(fatal, 'the snippet parses').toEqual([])
  return messages.filter((m) => m.ruleId !== null && BOUNDARY_RULES.has(m.ruleId) && m.severity === 2)
}

const vue = (script: string) =>
  `<script setup lang="ts">\n${script}\n</script>\n\n<template><div /></template>\n`

// [file it would be, import source] pairs that must fail the lint.
const violations: [string, string][] = [
  // renderer: never main, service, preload, Node built-ins, Electron, Node-only packages
  ['src/renderer/src/main.ts', '../../main/core'],
  ['src/renderer/src/stores/agents.ts', '../../../main/core'],
  ['src/renderer/src/components/agents/AgentRow.ts', '../../../../main/api/client'],
  ['src/renderer/src/stores/agents.ts', '../../../service/index'],
  ['src/renderer/src/desk.ts', '../../preload/index'],
  ['src/renderer/src/desk.ts', 'node:fs'],
  ['src/renderer/src/desk.ts', 'fs'],
  ['src/renderer/src/desk.ts', 'path'],
  ['src/renderer/src/desk.ts', 'fs/promises'],
  ['src/renderer/src/desk.ts', 'electron'],
  ['src/renderer/src/desk.ts', 'keytar'],
  ['src/renderer/src/desk.ts', 'libsql'],
  // a path that is not normalised cannot sneak past the depth-aware patterns
  ['src/renderer/src/desk.ts', './stores/../../../main/core'],
  ['src/renderer/src/desk.ts', './../../main/core'],
  // service: only shared
  ['src/service/routes.ts', '../main/core'],
  ['src/service/resources/agent.ts', '../../main/core'],
  ['src/service/routes.ts', '../renderer/src/desk'],
  ['src/service/routes.ts', '../preload/index'],
  ['src/service/routes.ts', 'electron'],
  ['src/service/routes.ts', 'vue'],
  // shared: no other layer, no Node, no Electron, no DOM/UI libraries
  ['src/shared/ipc.ts', '../service'],
  ['src/shared/ipc.ts', '../service/index'],
  ['src/shared/ipc.ts', '../main/core'],
  ['src/shared/ipc.ts', '../renderer/src/desk'],
  ['src/shared/ipc.ts', '../preload'],
  ['src/shared/ipc.ts', 'node:fs'],
  ['src/shared/ipc.ts', 'path'],
  ['src/shared/ipc.ts', 'electron'],
  ['src/shared/ipc.ts', 'vue'],
  ['src/shared/ipc.ts', 'naive-ui'],
  // main outside src/main/electron: no Electron; service only from the Local-workspace adapter
  ['src/main/core.ts', 'electron'],
  ['src/main/offline/cache.ts', 'electron'],
  ['src/main/core.ts', 'electron-updater'],
  ['src/main/core.ts', 'electron-log/main'],
  ['src/main/core.ts', '../service'],
  ['src/main/resources/agent.ts', '../../service/index'],
  ['src/main/core.ts', '../renderer/src/desk'],
  ['src/main/core.ts', '../preload/index'],
  ['src/main/core.ts', 'vue'],
  ['src/main/electron/app.ts', '../../service/index'],
  ['src/main/electron/app.ts', '../../renderer/src/desk'],
  // shipped code never imports test support
  ['src/main/core.ts', '../../test/support/originLikeServer'],
  ['src/service/index.ts', '../../e2e/harness/server'],
  // preload: shared and electron only
  ['src/preload/index.ts', '../main/core'],
  ['src/preload/index.ts', '../renderer/src/desk'],
  ['src/preload/index.ts', 'node:fs'],
  ['src/preload/index.ts', 'zod']
]

// Imports each layer may make: no boundary error.
const allowed: [string, string][] = [
  ['src/renderer/src/desk.ts', '../../shared/ipc'],
  ['src/renderer/src/components/agents/AgentRow.ts', '../../../../shared/agent'],
  ['src/renderer/src/desk.ts', './stores/agents'],
  ['src/renderer/src/desk.ts', 'vue'],
  ['src/renderer/src/desk.ts', 'naive-ui/es/themes/dark'],
  ['src/renderer/src/desk.ts', 'zod'],
  ['src/service/routes.ts', '../shared/errors'],
  ['src/service/resources/agent.ts', '../../shared/agent'],
  ['src/service/routes.ts', 'node:http'],
  ['src/service/routes.ts', 'libsql'],
  ['src/shared/ipc.ts', './common'],
  ['src/shared/ipc.ts', 'zod'],
  ['src/main/core.ts', '../shared/ipc'],
  ['src/main/core.ts', './offline/cache'],
  ['src/main/core.ts', 'node:fs'],
  ['src/main/core.ts', 'keytar'],
  ['src/main/core.ts', 'electron-log/node'],
  ['src/main/localWorkspace.ts', '../service'],
  ['src/main/local/workspace.ts', '../../service/index'],
  ['src/main/electron/app.ts', 'electron'],
  ['src/main/electron/updates.ts', 'electron-updater'],
  ['src/main/electron/log.ts', 'electron-log/main'],
  ['src/main/electron/app.ts', '../core'],
  ['src/main/electron/app.ts', '../../shared/ipc'],
  ['src/preload/index.ts', 'electron'],
  ['src/preload/index.ts', '../shared/ipc'],
  // not shipped: tests, test support, e2e and benchmarks may cross layers
  ['src/renderer/src/stores/agents.test.ts', '../../../main/core'],
  ['src/renderer/src/stores/agents.test.ts', 'node:fs'],
  ['src/shared/ipc.test.ts', '../service/index'],
  ['test/support/kit.ts', '../../src/service/index'],
  ['e2e/harness/server.ts', '../../src/main/core'],
  ['test/bench/main.ts', '../../src/main/core']
]

describe('layer boundaries (eslint.config.js)', () => {
  it.each(violations)('%s importing %s fails the lint', async (file, source) => {
    const errors = await boundaryErrors(file, `import x from '${source}'\nexport default x\n`)
    expect(errors.map((e) => e.message).join('\n')).not.toBe('')
    // A type-only import crosses the layer too (the renderer's window API type lives in shared).
    expect(await boundaryErrors(file, `export type { X } from '${source}'\n`)).not.toEqual([])
    // So does a lazy import.
    expect(await boundaryErrors(file, `export const load = () => import('${source}')\n`)).not.toEqual([])
  })

  it.each(allowed)('%s importing %s is allowed', async (file, source) => {
    const errors = await boundaryErrors(file, `import x from '${source}'\nexport default x\n`)
    expect(errors.map((e) => e.message)).toEqual([])
    expect(await boundaryErrors(file, `export const load = () => import('${source}')\n`)).toEqual([])
  })

  it('checks Vue single-file components like TypeScript files', async () => {
    const file = 'src/renderer/src/views/AgentsView.vue'
    const bad = await boundaryErrors(file, vue(`import { createCore } from '../../../main/core'\ncreateCore`))
    expect(bad).toHaveLength(1)
    const lazy = await boundaryErrors(file, vue(`const C = () => import('node:fs')\nC`))
    expect(lazy).toHaveLength(1)
    const good = await boundaryErrors(
      file,
      vue(`import { AGENT_TYPES } from '../../../shared/common'\nAGENT_TYPES`)
    )
    expect(good).toEqual([])
  })

  it('reports boundary violations as errors, so `eslint .` exits non-zero', async () => {
    const [result] = await eslint.lintText(`import { app } from 'electron'\napp.quit()\n`, {
      filePath: join(root, 'src/main/core.ts')
    })
    expect(result?.errorCount).toBeGreaterThan(0)
    const formatted = await (await eslint.loadFormatter('stylish')).format(result ? [result] : [])
    expect(formatted).toContain('Only src/main/electron/')
  })
})

describe('the real files of each layer pass the whole config', () => {
  const files = [
    'src/shared/ipc.ts',
    'src/service/index.ts',
    'src/main/electron/app.ts',
    'src/preload/index.ts',
    'src/renderer/src/main.ts',
    'src/renderer/src/App.vue'
  ]
  it.each(files)('%s', async (file) => {
    const [result] = await eslint.lintFiles([join(root, file)])
    expect(result?.messages.map((m) => `${m.line}: ${m.ruleId} ${m.message}`)).toEqual([])
  })
})

describe('prettier owns formatting', () => {
  it.each(['src/renderer/src/App.vue', 'src/main/core.ts'])('no layout rule is on for %s', async (file) => {
    const config = (await eslint.calculateConfigForFile(join(root, file))) as Linter.Config
    const rules = await import('eslint/use-at-your-own-risk').then((m) => m.builtinRules)
    const plugins = config.plugins ?? {}
    const layoutOn = Object.entries(config.rules ?? {}).filter(([id, entry]) => {
      const level = Array.isArray(entry) ? entry[0] : entry
      if (level === 'off' || level === 0) return false
      const slash = id.lastIndexOf('/')
      const rule = slash < 0 ? rules.get(id) : plugins[id.slice(0, slash)]?.rules?.[id.slice(slash + 1)]
      return rule !== undefined && typeof rule === 'object' && rule.meta?.type === 'layout'
    })
    expect(layoutOn.map(([id]) => id)).toEqual([])
    // and the rules are really there to check: the Vue ones for .vue, typescript-eslint's everywhere
    const ids = Object.keys(config.rules ?? {})
    if (file.endsWith('.vue')) expect(ids).toContain('vue/no-mutating-props')
    expect(ids).toContain('@typescript-eslint/no-explicit-any')
  })
})
