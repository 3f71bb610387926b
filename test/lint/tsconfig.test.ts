/**
 * The TypeScript projects split the code by runtime: main, service and shared see no DOM; the renderer
 * sees no Node. Checked with the real tsconfig files and the TypeScript compiler on a probe file.
 */
import { fileURLToPath } from 'node:url'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))

function project(name: string): ts.ParsedCommandLine {
  const file = join(root, name)
  const { config, error } = ts.readConfigFile(file, (p) => ts.sys.readFile(p))
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'))
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, file, undefined, [
    { extension: '.vue', isMixedContent: true, scriptKind: ts.ScriptKind.Deferred }
  ])
  if (parsed.errors.length) throw new Error(parsed.errors.map((e) => e.messageText).join('\n'))
  return parsed
}

/** Semantic error codes of `code` compiled alone as `fileName` with the options of `tsconfig`. */
function errorCodes(tsconfig: string, fileName: string, code: string): number[] {
  const { options } = project(tsconfig)
  const path = join(root, fileName)
  const host = ts.createCompilerHost(options)
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (name, lang, ...rest) =>
    name === path ? ts.createSourceFile(name, code, lang) : getSourceFile(name, lang, ...rest)
  const fileExists = host.fileExists.bind(host)
  host.fileExists = (name) => name === path || fileExists(name)
  const program = ts.createProgram({ rootNames: [path], options, host })
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(path)).map((d) => d.code)
}

const files = (tsconfig: string) => project(tsconfig).fileNames.map((f) => relative(root, f))

describe('tsconfig projects by runtime', () => {
  it('tsconfig.json is a solution over the three projects', () => {
    const solution = project('tsconfig.json')
    expect(solution.fileNames).toEqual([])
    expect(solution.projectReferences?.map((r) => relative(root, r.path)).sort()).toEqual([
      'tsconfig.dom-node.json',
      'tsconfig.node.json',
      'tsconfig.web.json'
    ])
  })

  it('each layer is in the project of its runtime', () => {
    const node = files('tsconfig.node.json')
    const web = files('tsconfig.web.json')
    const domNode = files('tsconfig.dom-node.json')
    for (const layer of ['src/main/', 'src/service/', 'src/shared/', 'test/']) {
      expect(node.some((f) => f.startsWith(layer))).toBe(true)
    }
    expect(node.some((f) => f.startsWith('src/renderer/') || f.startsWith('src/preload/'))).toBe(false)
    expect(web.some((f) => f.startsWith('src/renderer/src/') && f.endsWith('.vue'))).toBe(true)
    expect(web.some((f) => f.startsWith('src/shared/'))).toBe(true)
    expect(web.filter((f) => !f.startsWith('src/renderer/') && !f.startsWith('src/shared/'))).toEqual([])
    expect(web.filter((f) => f.endsWith('.test.ts'))).toEqual([])
    expect(domNode).toContain('src/preload/index.ts')
    expect(domNode.some((f) => f.startsWith('e2e/'))).toBe(true)
    // every TypeScript file is in some project
    const all = new Set([...node, ...web, ...domNode])
    const missing = ts.sys
      .readDirectory(
        root,
        ['.ts', '.vue'],
        ['node_modules', 'out', 'dist', 'test-results', 'playwright-report']
      )
      .map((f) => relative(root, f))
      .filter((f) => !f.startsWith('node_modules/') && !all.has(f))
    expect(missing).toEqual([])
  })

  it('main code sees Node and no DOM', () => {
    expect(
      errorCodes('tsconfig.node.json', 'src/main/probe.ts', 'export const a = process.env.HOME')
    ).toEqual([])
    // 2584: "Cannot find name 'document'… include 'dom'"
    expect(errorCodes('tsconfig.node.json', 'src/main/probe.ts', 'export const a = document.title')).toEqual([
      2584
    ])
  })

  it('renderer code sees the DOM and no Node', () => {
    expect(
      errorCodes('tsconfig.web.json', 'src/renderer/src/probe.ts', 'export const a = document.title')
    ).toEqual([])
    // 2591: "Cannot find name 'process'… install type definitions for node"
    expect(
      errorCodes(
        'tsconfig.web.json',
        'src/renderer/src/probe.ts',
        "export const a = process.env.HOME ?? Buffer.from('')"
      )
    ).toEqual([2591, 2591])
  })
})
