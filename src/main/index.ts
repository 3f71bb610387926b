/**
 * Electron main entry (built by electron-vite as ESM). Everything of substance is plain Node in
 * src/main (core, handlers, session…); this file and ./electron only wire Electron up.
 *
 * Environment: AGENT_DESK_USER_DATA sets the user-data folder (e2e in Electron mode);
 * ELECTRON_RENDERER_URL is the renderer dev server (set by `electron-vite dev`).
 */
import { app } from 'electron'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startApp } from './electron/app'

const here = dirname(fileURLToPath(import.meta.url))

const userData = process.env.AGENT_DESK_USER_DATA
if (userData) app.setPath('userData', resolve(userData))

startApp({
  preload: join(here, '../preload/index.cjs'),
  rendererHtml: join(here, '../renderer/index.html'),
  devServerUrl: app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL
})
