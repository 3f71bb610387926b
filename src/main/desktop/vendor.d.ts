/**
 * The few functions used from two libraries that come with electron-updater (its own
 * dependencies, installed with it) and ship no type declarations of their own.
 */
declare module 'js-yaml' {
  export function load(text: string, options?: { filename?: string; json?: boolean }): unknown
}

declare module 'semver' {
  export function valid(version: string): string | null
  export function gt(a: string, b: string): boolean
}
