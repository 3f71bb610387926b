/** The About dialog's text, as its Copy button puts it on the clipboard. */
import type { AboutInfo } from './ipc'

/** One fact a line; "—" for what is not known (Electron and Chromium outside Electron). */
export function aboutText(a: AboutInfo): string {
  return [
    `${a.name} ${a.version}`,
    `Electron: ${a.electron ?? '—'}`,
    `Chromium: ${a.chromium ?? '—'}`,
    `Node: ${a.node}`,
    `V8: ${a.v8 ?? '—'}`,
    `OS: ${a.platform} ${a.arch}`,
    `Data folder: ${a.dataDir}`
  ].join('\n')
}
