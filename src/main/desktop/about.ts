/** What the About dialog shows (channel `app.about`): plain Node, from process.versions. */
import type { AboutInfo } from '../../shared/ipc'

export interface AboutSource {
  version: string
  userDataDir: string
  name?: string
  versions?: Partial<Record<string, string>>
  platform?: string
  arch?: string
}

export function aboutInfo(src: AboutSource): AboutInfo {
  const v = src.versions ?? process.versions
  return {
    name: src.name ?? 'Agent Desk',
    version: src.version,
    electron: v.electron ?? null,
    chromium: v.chrome ?? null,
    node: v.node ?? process.version.replace(/^v/, ''),
    v8: v.v8 ?? null,
    platform: src.platform ?? process.platform,
    arch: src.arch ?? process.arch,
    dataDir: src.userDataDir
  }
}
