/**
 * The renderer benchmark's floor: `floor/` built with Vite (the app's Vue, naive-ui, virtual list
 * and name order, nothing else) and served from memory on 127.0.0.1 the way the harness serves the app
 * (hashed assets immutable, the page revalidated), with the items embedded in the page as JSON.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, extname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import vue from '@vitejs/plugin-vue'

export interface FloorData {
  mode: 'start' | 'list'
  resource: string
  testid: string
  items: unknown[]
}

export interface FloorPage {
  /** The built page's folder (for its initial JS size). */
  dir: string
  /** Registers the data a page shows; returns its URL. */
  page(key: string, data: FloorData): string
  close(): Promise<void>
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8'
}

/** Builds the floor page (minified, like the app's renderer) and serves it. */
export async function startFloorPage(): Promise<FloorPage> {
  const root = join(dirname(fileURLToPath(import.meta.url)), 'floor')
  const dir = mkdtempSync(join(tmpdir(), 'agent-desk-bench-floor-'))
  await build({
    root,
    base: './',
    logLevel: 'warn',
    configFile: false,
    // The app's virtual list is a single-file component (VirtualRows.vue).
    plugins: [vue()],
    build: { outDir: dir, emptyOutDir: true, minify: true, modulePreload: { polyfill: false } }
  })
  const files = new Map<string, Buffer>()
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name)
      if (e.isDirectory()) walk(p)
      else files.set(`/${relative(dir, p)}`, readFileSync(p))
    }
  }
  walk(dir)
  const html = (files.get('/index.html') as Buffer).toString('utf8')
  const pages = new Map<string, Buffer>()
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://floor')
    if (url.pathname === '/' || url.pathname === '/index.html') {
      const body = pages.get(url.searchParams.get('data') ?? '')
      if (!body) {
        res.writeHead(404).end('no such data')
        return
      }
      res.writeHead(200, { 'content-type': TYPES['.html'], 'cache-control': 'no-cache' })
      res.end(body)
      return
    }
    const file = files.get(url.pathname)
    if (!file) {
      res.writeHead(404).end('not found')
      return
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(url.pathname)] ?? 'application/octet-stream',
      'cache-control': 'public, max-age=31536000, immutable'
    })
    res.end(file)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    dir,
    page(key, data) {
      const json = JSON.stringify(data).replace(/</g, '\\u003c')
      pages.set(
        key,
        Buffer.from(
          html.replace(
            '<!--floor-data-->',
            `<script type="application/json" id="floor-data">${json}</script>`
          )
        )
      )
      return `${base}/?data=${encodeURIComponent(key)}`
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
