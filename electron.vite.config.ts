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
        input: { index: resolve(__dirname, 'src/renderer/index.html') }
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
