#!/usr/bin/env node
// `npm run icons`: renders resources/icon.svg into every icon the installers need.
//   <out>/icons/<n>x<n>.png  for each size (Linux takes the folder; electron-builder reads the size
//                             from the file name)
//   <out>/icon.icns           macOS
//   <out>/icon.ico            Windows (PNG entries from 64 px, BMP below, as old Explorer needs)
// <out> is resources/packaging unless `--out <dir>` is given (the test regenerates into a temp dir).
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Resvg } from '@resvg/resvg-js'
import png2icons from 'png2icons'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
export const SOURCE = join(root, 'resources/icon.svg')
export const DEFAULT_OUT = join(root, 'resources/packaging')
export const SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024]

/** Renders the SVG at one square size; resvg is deterministic for a given version. */
export function renderPng(svg, size) {
  return new Resvg(svg, { fitTo: { mode: 'width', value: size }, font: { loadSystemFonts: false } })
    .render()
    .asPng()
}

/** macOS .icns from the largest PNG (png2icons is plain JS: the same bytes on every system). */
export function toIcns(png) {
  const icns = png2icons.createICNS(png, png2icons.BICUBIC, 0)
  if (!icns) throw new Error('png2icons could not make an .icns of the PNG')
  return icns
}

/** Windows .ico from the largest PNG, laid out for an executable's resources. */
export function toIco(png) {
  const ico = png2icons.createICO(png, png2icons.BICUBIC, 0, false, true)
  if (!ico) throw new Error('png2icons could not make an .ico of the PNG')
  return ico
}

/** Writes every PNG size, the .icns and the .ico under `outDir`; returns the written paths. */
export async function generateIcons(outDir = DEFAULT_OUT, source = SOURCE) {
  const svg = await readFile(source)
  const pngDir = join(outDir, 'icons')
  await mkdir(pngDir, { recursive: true })
  const written = []
  let largest = null
  for (const size of SIZES) {
    const png = renderPng(svg, size)
    const file = join(pngDir, `${size}x${size}.png`)
    await writeFile(file, png)
    written.push(file)
    largest = png
  }
  await writeFile(join(outDir, 'icon.icns'), toIcns(largest))
  await writeFile(join(outDir, 'icon.ico'), toIco(largest))
  written.push(join(outDir, 'icon.icns'), join(outDir, 'icon.ico'))
  return written
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--out')
  const out = i > 0 && process.argv[i + 1] ? resolve(process.argv[i + 1]) : DEFAULT_OUT
  const files = await generateIcons(out)
  for (const f of files) console.log(`[icons] ${f}`)
}
