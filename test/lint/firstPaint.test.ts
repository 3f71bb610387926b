/**
 * The renderer's first paint stays light: what src/renderer/src/main.ts reaches through static
 * value imports (the initial JavaScript; `import type` is erased and `import()` loads later)
 * never imports zod, nor naive-ui's heavier parts that nothing needs before the list is on screen
 * (the select of the list filters, the header's tooltips, the providers of dialogs and toasts). Forms, detail panes and dialogs bring them when first shown.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const STATIC =
  /(?:^|[\n;])\s*(import|export)\s+(?!type\s)([^'"]*?)\s*from\s+['"]([^'"]+)['"]|(?:^|[\n;])\s*import\s+['"]([^'"]+)['"]/g

function resolveImport(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec)
  for (const c of [base, `${base}.ts`, `${base}.vue`, join(base, 'index.ts')]) {
    if (existsSync(c) && statSync(c).isFile()) return c
  }
  return null
}

/** `{ type A, type B }`: only types, erased from the build. */
const typesOnly = (clause: string) => {
  const m = /^\{([^}]*)\}$/.exec(clause.trim())
  return !!m && (m[1] ?? '').split(',').every((s) => s.trim() === '' || /^type\s/.test(s.trim()))
}

/** Every module the entry reaches statically, with the packages each imports (`pkg` or `pkg:Name`). */
function firstPaintGraph(entry: string): Map<string, string[]> {
  const seen = new Map<string, string[]>()
  const todo = [entry]
  while (todo.length) {
    const file = todo.pop() as string
    if (seen.has(file)) continue
    const packages: string[] = []
    seen.set(file, packages)
    for (const m of readFileSync(file, 'utf8').matchAll(STATIC)) {
      const spec = (m[3] ?? m[4]) as string
      if (m[2] !== undefined && typesOnly(m[2])) continue
      if (!spec.startsWith('.')) {
        packages.push(spec)
        const names = /^\{([^}]*)\}$/.exec((m[2] ?? '').trim())?.[1] ?? ''
        for (const n of names.split(',')) {
          const name = n.trim().split(/\s+as\s+/)[0]
          if (name && !name.startsWith('type ')) packages.push(`${spec}:${name}`)
        }
        continue
      }
      const target = resolveImport(file, spec)
      if (target) todo.push(target)
    }
  }
  return seen
}

describe('first paint', () => {
  const graph = firstPaintGraph(join(root, 'src/renderer/src/main.ts'))

  it('reaches the app shell and the list views, and no module of it imports zod', () => {
    const files = [...graph.keys()].map((f) => relative(root, f))
    expect(files).toContain('src/renderer/src/layouts/AppShell.vue')
    expect(files).toContain('src/renderer/src/i18n/index.ts')
    const withZod = [...graph].filter(([, pkgs]) => pkgs.includes('zod')).map(([f]) => relative(root, f))
    expect(withZod).toEqual([])
  })

  it("loads naive-ui's select, tooltip, dialogs and toasts after the first paint", () => {
    const later = [
      'NSelect',
      'NTooltip',
      'NDialogProvider',
      'NMessageProvider',
      'NNotificationProvider',
      'useDialog',
      'useMessage',
      'useNotification'
    ].map((name) => `naive-ui:${name}`)
    const users = [...graph]
      .filter(([, pkgs]) => pkgs.some((p) => later.includes(p)))
      .map(([f]) => relative(root, f))
    expect(users).toEqual([])
    // The list filters' select and the feedback host: chunks of their own, loaded beside the first view.
    const filters = firstPaintGraph(join(root, 'src/renderer/src/components/common/lazySelect.ts'))
    expect([...filters.values()].flat()).toContain('naive-ui:NSelect')
    const host = firstPaintGraph(join(root, 'src/renderer/src/layouts/FeedbackHost.vue'))
    expect([...host.values()].flat()).toEqual(expect.arrayContaining(later.slice(2)))
  })

  it('would notice a zod import through a shared module (the check sees re-exports too)', () => {
    const drafts = firstPaintGraph(join(root, 'src/shared/drafts.ts'))
    expect([...drafts].some(([, pkgs]) => pkgs.includes('zod'))).toBe(true)
  })
})
