/**
 * Electron main entry (built by electron-vite as ESM). Everything of substance is plain Node in
 * src/main (core, handlers, session…); this file and ./electron only wire Electron up.
 *
 * Environment: AGENT_DESK_USER_DATA sets the user-data folder (e2e in Electron mode);
 * ELECTRON_RENDERER_URL is the renderer dev server (set by `electron-vite dev`; honoured only by a
 * development build, for a loopback http address); AGENT_DESK_DEVTOOLS=1 allows DevTools in an
 * installed (packaged) app.
 */
import { app } from 'electron'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startApp } from './app'
import { devServerDecision, devToolsAllowed } from '../security'

const here = dirname(fileURLToPath(import.meta.url))

const userData = process.env.AGENT_DESK_USER_DATA
if (userData) app.setPath('userData', resolve(userData))

const build = { devBuild: import.meta.env.DEV === true, packaged: app.isPackaged }
const devServer = devServerDecision(process.env.ELECTRON_RENDERER_URL, build)
if (devServer.warning) console.warn(`[agent-desk] ${devServer.warning}`)

startApp({
  preload: join(here, '../preload/index.cjs'),
  rendererHtml: join(here, '../renderer/index.html'),
  serviceThread: join(here, 'serviceThread.cjs'),
  devServerUrl: devServer.url,
  devTools: devToolsAllowed(build, process.env),
  devBuild: build.devBuild
})
