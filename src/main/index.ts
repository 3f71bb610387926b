/**
 * Electron main entry, as electron-vite builds it (out/main/index.js). The app's start-up is in
 * ./electron/entry (Electron is imported only under ./electron); everything of substance is plain
 * Node in src/main.
 */
import './electron/entry'
