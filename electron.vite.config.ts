import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import { build, type Plugin } from 'vite'
import VueI18nPlugin from '@intlify/unplugin-vue-i18n/vite'
import vue from '@vitejs/plugin-vue'

/**
 * The first frame (src/renderer/src/firstFrame/shell.ts): built as a plain script of its own and
 * run before the app's code, which it starts once it has drawn the cached list. The page's entry
 * script becomes a `modulepreload` link marked `data-app-entry` (the code still downloads and
 * compiles at once), and the first frame's script comes right after `#app`. Build only: in
 * `electron-vite dev` the page loads the app as usual.
 */
function firstFrame(): Plugin {
  const source = resolve(__dirname, 'src/renderer/src/firstFrame/shell.ts')
  const fileName = 'first-frame.js'
  return {
    name: 'agent-desk:first-frame',
    apply: 'build',
    async generateBundle() {
      // Its own small bundle (the helpers it imports, nothing else), as one classic script.
      const built = await build({
        configFile: false,
        logLevel: 'warn',
        build: {
          write: false,
          minify: true,
          target: 'es2022',
          lib: { entry: source, formats: ['iife'], name: 'agentDeskFirstFrameScript' }
        }
      })
      const out = (Array.isArray(built) ? built[0] : built) as { output: { type: string; code?: string }[] }
      const code = out.output.find((o) => o.type === 'chunk')?.code
      if (!code) throw new Error('first frame: the build gave no script')
      this.emitFile({ type: 'asset', fileName, source: code })
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/
        if (!entry.test(html)) throw new Error('first frame: the entry script is not in index.html')
        return html
          .replace(entry, '<link rel="modulepreload" crossorigin href="$1" data-app-entry>')
          .replace('<div id="app"></div>', `<div id="app"></div>\n    <script src="./${fileName}"></script>`)
      }
    }
  }
}

/** The service thread's entry (src/service/thread.ts) and the file it is built to beside main's. */
export const SERVICE_THREAD = {
  entry: resolve(__dirname, 'src/service/threadEntry.ts'),
  fileName: 'serviceThread.cjs'
}

/**
 * The service thread's script: one CommonJS file (Electron reads a worker's CommonJS from
 * app.asar) with zod inside it (required as a package, zod's hundred files took ~100 ms of the
 * thread's start); libsql and Node's built-ins stay required. Also built by the unit tests'
 * setup (test/support/serviceThread.setup.ts), which run the same file.
 */
export async function buildServiceThread(): Promise<string> {
  const built = await build({
    configFile: false,
    logLevel: 'warn',
    ssr: { noExternal: ['zod'] },
    build: {
      write: false,
      ssr: SERVICE_THREAD.entry,
      target: 'node20',
      rollupOptions: { output: { format: 'cjs', entryFileNames: SERVICE_THREAD.fileName } }
    }
  })
  const out = (Array.isArray(built) ? built[0] : built) as { output: { type: string; code?: string }[] }
  const chunks = out.output.filter((o) => o.type === 'chunk')
  if (chunks.length !== 1 || !chunks[0]?.code)
    throw new Error('service thread: the build gave no single script')
  return chunks[0].code
}

/** Emits the service thread's script into main's output (out/main/serviceThread.cjs). */
function serviceThread(): Plugin {
  return {
    name: 'agent-desk:service-thread',
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName: SERVICE_THREAD.fileName, source: await buildServiceThread() })
    }
  }
}

export default defineConfig({
  main: {
    plugins: [serviceThread()],
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/main/index.ts') }
      }
    }
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        // A sandboxed preload must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' }
      }
    }
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    base: './',
    build: {
      // electron-vite leaves the renderer unminified by default; minified, a start has half the
      // JavaScript to read and compile.
      minify: true,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/renderer/index.html') },
        // Everything the first frame needs in one file, not forty: on a first start each extra file
        // is one more request and module to instantiate before the list can paint. What loads later
        // (forms, dialogs, other views) stays split.
        output: { codeSplitting: { groups: [{ name: 'first-paint', tags: ['$initial'] }] } }
      }
    },
    plugins: [
      vue(),
      firstFrame(),
      // The interface's messages are compiled at build time; the app ships vue-i18n's runtime only
      // (no message compiler, no legacy API, no global components).
      VueI18nPlugin({
        include: [resolve(__dirname, 'src/renderer/src/i18n/locales/**/*.json')],
        runtimeOnly: true,
        compositionOnly: true,
        fullInstall: false,
        dropMessageCompiler: true,
        strictMessage: true,
        escapeHtml: true
      })
    ]
  }
})
