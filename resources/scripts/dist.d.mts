// Types of dist.mjs for the TypeScript tests (the script itself runs as plain Node ESM).
export declare const CONFIG: string
export declare const SIGNING_VARS: readonly string[]

export interface DistInput {
  platform: string
  arch: string
  env: Record<string, string | undefined>
  args: string[]
}

export interface DistPlan {
  /** Arguments for electron-builder's CLI. */
  builderArgs: string[]
  /** The whole environment electron-builder runs with. */
  env: Record<string, string>
  /** One line per skipped signing or notarisation step. */
  notes: string[]
  publish: string
}

export declare function planDist(input: DistInput): DistPlan
