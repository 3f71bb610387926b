import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import VueI18nPlugin from '@intlify/unplugin-vue-i18n/vite'
import vue from '@vitejs/plugin-vue'

export default defineConfig({
  main: {
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
