/**
 * Names a CPU profile's call frame in the built renderer by its source, through the build's
 * sourcemaps (`npx electron-vite build --sourcemap`): a file (`src/renderer/…` shortened, or the
 * npm package), optionally with its line. Frames without a map keep their file and function name.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping'
import type { ProfileNode } from './cpuProfile'

export const rendererDir = resolve('out/renderer')

const maps = new Map<string, TraceMap | null>()
function mapFor(url: string): TraceMap | null {
  if (!url.includes('/assets/')) return null
  if (!maps.has(url)) {
    const file = join(rendererDir, 'assets', `${url.split('/').pop() ?? ''}.map`)
    maps.set(url, existsSync(file) ? new TraceMap(readFileSync(file, 'utf8')) : null)
  }
  return maps.get(url) ?? null
}

/** The frame's source file, or `file:line` with `line`. */
export function sourceKey(cf: ProfileNode['callFrame'], line: boolean): string {
  const map = mapFor(cf.url)
  const at = map ? originalPositionFor(map, { line: cf.lineNumber + 1, column: cf.columnNumber }) : null
  if (!at?.source) return cf.url ? `${cf.url.split('/').pop() ?? ''} ${cf.functionName}` : cf.functionName
  const file = at.source
    .replace(/^.*node_modules\/((@[^/]+\/)?[^/]+).*$/, '$1')
    .replace(/^.*src\/renderer\//, '')
  return line ? `${file}:${String(at.line)}` : file
}
