// Types of icons.mjs for the TypeScript tests (the script itself runs as plain Node ESM).
export declare const SOURCE: string
export declare const DEFAULT_OUT: string
export declare const SIZES: number[]
export declare function renderPng(svg: Buffer | string, size: number): Buffer
export declare function generateIcons(outDir?: string, source?: string): Promise<string[]>
export declare function toIcns(png: Buffer): Buffer
export declare function toIco(png: Buffer): Buffer
