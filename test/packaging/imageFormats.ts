/**
 * Just enough of PNG, ICO and ICNS to check the committed icons: PNG decoding (8-bit RGBA,
 * non-interlaced, what resvg writes) and the entry tables of the two icon containers.
 */
import { inflateSync } from 'node:zlib'

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

export interface PngInfo {
  width: number
  height: number
  bitDepth: number
  colorType: number
}

export function isPng(buf: Buffer): boolean {
  return buf.length > 24 && buf.subarray(0, 8).equals(PNG_SIGNATURE)
}

/** Dimensions and format from the IHDR chunk. */
export function pngInfo(buf: Buffer): PngInfo {
  if (!isPng(buf) || buf.toString('latin1', 12, 16) !== 'IHDR') throw new Error('not a PNG')
  return {
    width: buf.readUInt32BE(16),
    height: buf.readUInt32BE(20),
    bitDepth: buf[24]!,
    colorType: buf[25]!
  }
}

/** Decoded RGBA pixels of an 8-bit RGBA non-interlaced PNG. */
export function decodeRgba(buf: Buffer): { width: number; height: number; pixels: Buffer } {
  const info = pngInfo(buf)
  if (info.bitDepth !== 8 || info.colorType !== 6 || buf[28] !== 0) throw new Error('only 8-bit RGBA PNGs')
  const idat: Buffer[] = []
  for (let p = 8; p < buf.length;) {
    const length = buf.readUInt32BE(p)
    const type = buf.toString('latin1', p + 4, p + 8)
    if (type === 'IDAT') idat.push(buf.subarray(p + 8, p + 8 + length))
    p += 12 + length
  }
  const raw = inflateSync(Buffer.concat(idat))
  const stride = info.width * 4
  const pixels = Buffer.alloc(stride * info.height)
  for (let y = 0; y < info.height; y++) {
    const filter = raw[y * (stride + 1)]!
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1))
    for (let x = 0; x < stride; x++) {
      const a = x >= 4 ? pixels[y * stride + x - 4]! : 0
      const b = y > 0 ? pixels[(y - 1) * stride + x]! : 0
      const c = x >= 4 && y > 0 ? pixels[(y - 1) * stride + x - 4]! : 0
      const pa = Math.abs(b - c)
      const pb = Math.abs(a - c)
      const pc = Math.abs(a + b - 2 * c)
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter]
      if (predictor === undefined) throw new Error(`bad PNG filter ${filter}`)
      pixels[y * stride + x] = (line[x]! + predictor) & 0xff
    }
  }
  return { width: info.width, height: info.height, pixels }
}

export interface IconEntry {
  /** ICO: "<w>x<h>"; ICNS: the OSType (ic10, is32, ...). */
  id: string
  data: Buffer
}

/** The images of a Windows .ico, each with its directory size. */
export function icoEntries(buf: Buffer): IconEntry[] {
  if (buf.readUInt16LE(0) !== 0 || buf.readUInt16LE(2) !== 1) throw new Error('not an .ico')
  const count = buf.readUInt16LE(4)
  const entries: IconEntry[] = []
  for (let i = 0; i < count; i++) {
    const at = 6 + 16 * i
    const size = buf.readUInt32LE(at + 8)
    const offset = buf.readUInt32LE(at + 12)
    if (offset + size > buf.length) throw new Error(`.ico entry ${i} runs past the end of the file`)
    entries.push({ id: `${buf[at] || 256}x${buf[at + 1] || 256}`, data: buf.subarray(offset, offset + size) })
  }
  return entries
}

/** The chunks of a macOS .icns; their lengths must add up to the file's. */
export function icnsEntries(buf: Buffer): IconEntry[] {
  if (buf.toString('latin1', 0, 4) !== 'icns' || buf.readUInt32BE(4) !== buf.length)
    throw new Error('not an .icns')
  const entries: IconEntry[] = []
  for (let p = 8; p < buf.length;) {
    const length = buf.readUInt32BE(p + 4)
    if (length < 8 || p + length > buf.length) throw new Error(`.icns chunk at ${p} has a bad length`)
    entries.push({ id: buf.toString('latin1', p, p + 4), data: buf.subarray(p + 8, p + length) })
    p += length
  }
  return entries
}
