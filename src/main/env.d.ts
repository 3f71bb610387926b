/** What electron-vite (Vite) defines in the main build: DEV is true only under `electron-vite dev`. */
interface ImportMetaEnv {
  readonly DEV: boolean
  readonly PROD: boolean
  readonly MODE: string
}
interface ImportMeta {
  readonly env: ImportMetaEnv
}
