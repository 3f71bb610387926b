// js-yaml ships no types (it comes with electron-builder); the tests need only `load`.
declare module 'js-yaml' {
  export function load(text: string): unknown
}
