/**
 * Import circles among a tree's shipped modules (`.ts`, `.vue`; tests left out): relative static
 * imports, re-exports and dynamic `import()` all count. Tarjan's strongly connected components.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const IMPORT =
  /(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|import\s+['"](\.[^'"]+)['"]/g

function sourceFiles(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p))
    else if (/\.(ts|vue)$/.test(name) && !name.endsWith('.test.ts')) out.push(p)
  }
  return out
}

function resolveImport(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec)
  for (const c of [base, `${base}.ts`, `${base}.vue`, join(base, 'index.ts')]) {
    if (existsSync(c) && statSync(c).isFile()) return c
  }
  return null
}

/** Each circle as the files in it, relative to `root`. */
export function importCircles(root: string, dir = root): string[][] {
  const graph = new Map<string, string[]>()
  for (const f of sourceFiles(dir)) {
    const targets: string[] = []
    for (const m of readFileSync(f, 'utf8').matchAll(IMPORT)) {
      const t = resolveImport(f, (m[1] ?? m[2] ?? m[3]) as string)
      if (t && !t.endsWith('.test.ts')) targets.push(t)
    }
    graph.set(f, targets)
  }
  let next = 0
  const stack: string[] = []
  const onStack = new Set<string>()
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const circles: string[][] = []
  const visit = (v: string): void => {
    index.set(v, next)
    low.set(v, next++)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const component: string[] = []
    let w: string
    do {
      w = stack.pop()!
      onStack.delete(w)
      component.push(relative(root, w))
    } while (w !== v)
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) circles.push(component)
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return circles
}
