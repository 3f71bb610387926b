import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import vue from '@vitejs/plugin-vue'

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  plugins: [vue()],
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    setupFiles: ['test/support/vueSetup.ts', 'test/support/tempDirs.setup.ts'],
    globalSetup: ['test/support/serviceThread.setup.ts'],
    // Real servers and a real keychain: give slow machines room, never retry to hide flakiness.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks'
  }
})
