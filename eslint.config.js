// @ts-check
/**
 * ESLint (flat config): typescript-eslint and eslint-plugin-vue recommended rules, prettier owns all
 * formatting, and the import boundaries between the layers of `src/`.
 *
 * Layers (each may import from the layers listed, nothing else in `src/`):
 *   src/shared    the contract: imports nothing but zod (no other layer, no Node, no Electron, no DOM libs)
 *   src/service   the embedded service: shared; Node built-ins and its packages; never Electron or UI libs
 *   src/main      the main process, plain Node: shared. Only the Local-workspace adapter (LOCAL_ADAPTER
 *                 below) also imports src/service; only src/main/electron/ imports electron,
 *                 electron-updater and electron-log's Electron entries.
 *   src/preload   the preload: shared and `electron`, nothing else (it runs sandboxed).
 *   src/renderer  the Vue app: shared (values and types); never main, service, preload, Node built-ins,
 *                 Electron or Node-only packages (keytar, libsql).
 * Not shipped, so free to cross layers: `*.test.ts` anywhere, test/, e2e/, test/bench/ (inside test/).
 *
 * Static imports and re-exports are checked by core `no-restricted-imports` (one block per layer and
 * folder depth, because a relative path's meaning depends on how deep the importing file is);
 * `import('…')` is checked against the same patterns by the small local rule `layers/dynamic-imports`.
 * test/lint/layers.test.ts shows that a deliberate violation of each rule fails the lint.
 */
import { builtinModules } from 'node:module'
import { defineConfig } from 'eslint/config'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import pluginVue from 'eslint-plugin-vue'

/** Files in src/main that are the Local-workspace adapter: the only main code that may import src/service. */
export const LOCAL_ADAPTER = ['src/main/localWorkspace.ts', 'src/main/local/**']

/** Deepest folder nesting below src/ that the per-depth blocks cover (src/renderer/src/components/x is 4). */
const MAX_DEPTH = 10
const SOURCE = ['*.ts', '*.vue']

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

// Package groups, as `no-restricted-imports` patterns (regex on the import source).
const nodeBuiltins = builtinModules.filter((m) => !m.startsWith('_')).map(escape)
const NODE = [
  { regex: '^node:', message: 'Node built-ins are not available in this layer.' },
  {
    regex: `^(?:${nodeBuiltins.join('|')})(?:/|$)`,
    message: 'Node built-ins are not available in this layer.'
  }
]
const ELECTRON = [
  {
    regex: '^(?:electron|electron-updater)(?:/|$)|^electron-log(?:/(?:main|renderer|preload))?$',
    message: 'Only src/main/electron/ (and the preload) import Electron; keep this code plain Node.'
  }
]
const UI = [
  {
    regex: '^(?:vue|vue-router|pinia|naive-ui|@vue/[^/]+)(?:/|$)',
    message: 'UI libraries belong to src/renderer only.'
  }
]
const NODE_ONLY = [
  { regex: '^(?:keytar|libsql)(?:/|$)', message: 'Node-only packages are not available in the renderer.' }
]
const ONLY_ZOD = [
  { regex: '^(?!zod(?:/|$))[^.]', message: 'src/shared is the contract: it imports zod and nothing else.' }
]
const ONLY_ELECTRON = [
  { regex: '^(?!electron$)[^.]', message: 'The preload imports `electron` and src/shared only.' }
]
// Same for every file in src/: `a/../b` or `./../b` would hide where a path goes.
const NORMALISED = {
  regex: '(?:^|/)[^./][^/]*/\\.\\.(?:/|$)|/\\.(?:/|$)|^\\./\\.\\.(?:/|$)',
  message: 'Write relative imports normalised (no `x/../` or `./../`), so layer checks can read them.'
}

/**
 * Patterns for a file `depth` folders below src/ in `layer`, which may import the src/ folders in
 * `allowed` (its own layer is always allowed) and none of the `packages` groups.
 */
function patternsFor(layer, depth, allowed, packages) {
  const up = `^(?:\\./)?(?:\\.\\./){${depth}}`
  const ok = [layer, ...allowed].map(escape).join('|')
  const shown = allowed.length ? allowed.map((a) => `src/${a}`).join(' and ') : 'no other layer'
  return [
    NORMALISED,
    {
      regex: `${up}(?!(?:${ok})(?:/|$))[^./]`,
      message: `src/${layer} may import ${shown} (see eslint.config.js).`
    },
    { regex: `${up}(?:\\.\\./)*(?:test|e2e)(?:/|$)`, message: 'Shipped code never imports test support.' },
    ...packages.flat()
  ]
}

const layersPlugin = {
  rules: {
    'dynamic-imports': {
      meta: {
        type: 'problem',
        docs: { description: '`import()` obeys the same layer patterns as static imports' },
        schema: [{ type: 'array' }]
      },
      create(context) {
        const patterns = (context.options[0] ?? []).map((p) => ({ ...p, re: new RegExp(p.regex) }))
        return {
          ImportExpression(node) {
            const source = node.source
            if (source.type !== 'Literal' || typeof source.value !== 'string') return
            const hit = patterns.find((p) => p.re.test(String(source.value)))
            if (hit)
              context.report({
                node: source,
                message: `'${source.value}' import is restricted: ${hit.message}`
              })
          }
        }
      }
    }
  }
}

/**
 * One config block per depth below `dir` (or one for a single file): a relative path means a different
 * folder at each depth, and rule options do not merge across blocks, so each file gets exactly one
 * full set. Later blocks (sub-folders, single files) override earlier ones.
 */
function boundary({ layer, dir, files, allowed = [], packages = [] }) {
  const blocks = []
  const entries = files
    ? files.map((f) => (f.endsWith('/**') ? { dir: f.slice(0, -3) } : { file: f }))
    : [{ dir: dir ?? `src/${layer}` }]
  for (const entry of entries) {
    if (entry.file) {
      const depth = entry.file.split('/').length - 2
      blocks.push(block(layer, depth, [entry.file], allowed, packages))
      continue
    }
    const base = entry.dir.split('/').length - 1
    for (let depth = base; depth <= MAX_DEPTH; depth++) {
      const globs = SOURCE.map((s) => `${entry.dir}/${'*/'.repeat(depth - base)}${s}`)
      blocks.push(block(layer, depth, globs, allowed, packages))
    }
  }
  return blocks
}

function block(layer, depth, files, allowed, packages) {
  const patterns = patternsFor(layer, depth, allowed, packages)
  return {
    name: `layers/${layer}/depth-${depth}`,
    files,
    ignores: ['**/*.test.ts'],
    plugins: { layers: layersPlugin },
    rules: {
      'no-restricted-imports': ['error', { patterns }],
      'layers/dynamic-imports': ['error', patterns]
    }
  }
}

export default defineConfig(
  {
    name: 'project/ignores',
    ignores: ['out/', 'dist/', 'node_modules/', 'test-results/', 'playwright-report/', 'resources/packaging/']
  },
  ...tseslint.configs.recommended,
  ...pluginVue.configs['flat/recommended'],
  {
    name: 'project/vue-typescript',
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser, sourceType: 'module' } }
  },
  // Prettier owns formatting: every layout rule eslint-plugin-vue has is off (its own list).
  { name: 'project/prettier-owns-layout', ...pluginVue.configs['no-layout-rules'] },
  {
    name: 'project/globals-node',
    files: ['**/*.{js,ts}'],
    ignores: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.node } }
  },
  {
    name: 'project/globals-browser',
    files: ['src/renderer/**', 'src/preload/**'],
    languageOptions: { globals: { ...globals.browser } }
  },
  {
    name: 'project/rules',
    rules: {
      // `_name` marks a parameter kept for its position (TypeScript's noUnused* agrees).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }]
    }
  },
  {
    // Component tests define small stand-in components beside the one under test.
    name: 'project/tests',
    files: ['**/*.test.ts'],
    rules: { 'vue/one-component-per-file': 'off' }
  },
  ...boundary({ layer: 'shared', packages: [ONLY_ZOD] }),
  ...boundary({ layer: 'service', allowed: ['shared'], packages: [ELECTRON, UI] }),
  ...boundary({ layer: 'main', allowed: ['shared'], packages: [ELECTRON, UI] }),
  ...boundary({ layer: 'main', dir: 'src/main/electron', allowed: ['shared'], packages: [UI] }),
  ...boundary({
    layer: 'main',
    files: LOCAL_ADAPTER,
    allowed: ['shared', 'service'],
    packages: [ELECTRON, UI]
  }),
  ...boundary({ layer: 'preload', allowed: ['shared'], packages: [ONLY_ELECTRON] }),
  ...boundary({ layer: 'renderer', allowed: ['shared'], packages: [NODE, ELECTRON, NODE_ONLY] })
)
