/** Types of ensure-electron.mjs (plain ESM JavaScript, so it runs before anything is built). */
export declare const INSTALLER_NODE: string
export declare const DEFAULT_TIMEOUT_MS: number

export type ElectronStatus =
  | { state: 'ready'; binary: string; via: 'override' | 'exec-path' | 'installed' }
  | { state: 'missing'; reason: string }
  | { state: 'unusable'; reason: string }

export declare function platformPath(platform: string): string | null
export declare function electronDirFrom(cwd: string): string | null
export declare function electronStatus(opts: {
  electronDir: string
  env?: NodeJS.ProcessEnv
  platform?: string
}): ElectronStatus
export declare function packageVersion(electronDir: string): string | null
export declare function nodeOlderThan(version: string, min: string): boolean
export declare function installerReason(output: string): string | null
export declare function failureMessage(opts: {
  version: string | null
  missing: string
  reason?: string | null
  timedOutAfterMs?: number | undefined
  nodeVersion?: string
}): string
export declare function unusableMessage(reason: string): string
export declare function runInstaller(opts: {
  electronDir: string
  env?: NodeJS.ProcessEnv
  timeoutMs?: number
}): Promise<{ ok: boolean; code: number | null; timedOut: boolean; output: string }>
export declare function ensureElectron(opts?: {
  cwd?: string
  env?: NodeJS.ProcessEnv
  platform?: string
  timeoutMs?: number
  nodeVersion?: string
  onSlow?: (version: string | null) => void
}): Promise<
  | { ok: true; binary: string; installed: boolean; via: 'override' | 'exec-path' | 'installed' }
  | { ok: false; message: string }
>
