/**
 * vitest setup: component tests (happy-dom) mount with the app's i18n plugin installed, as the
 * app does in main.ts, so `$t`/`useI18n` work in every mounted component. Node tests skip it.
 */
if (typeof document !== 'undefined') {
  const [{ config }, { i18n }] = await Promise.all([
    import('@vue/test-utils'),
    import('../../src/renderer/src/i18n')
  ])
  config.global.plugins.push(i18n)
}

export {}
