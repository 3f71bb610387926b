/**
 * The committed icons (resources/packaging/icons/*.png, icon.icns, icon.ico) are what
 * `npm run icons` makes of resources/icon.svg: the test regenerates them into a temporary folder.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  DEFAULT_OUT,
  SIZES,
  generateIcons,
  renderPng,
  toIcns,
  toIco
} from '../../resources/scripts/icons.mjs'
import { decodeRgba, icnsEntries, icoEntries, isPng, pngInfo } from './imageFormats'

const root = fileURLToPath(new URL('../..', import.meta.url))
const committed = join(root, 'resources/packaging')
let fresh = ''

// png2icons takes seconds for the .icns; give a loaded machine room.
beforeAll(async () => {
  fresh = await mkdtemp(join(tmpdir(), 'agent-desk-icons-'))
  await generateIcons(fresh)
}, 180_000)
afterAll(async () => {
  if (fresh) await rm(fresh, { recursive: true, force: true })
})

/** Largest difference of one channel between two decoded PNGs of the same size. */
function maxChannelDifference(a: Buffer, b: Buffer): number {
  const x = decodeRgba(a)
  const y = decodeRgba(b)
  expect([y.width, y.height]).toEqual([x.width, x.height])
  let max = 0
  for (let i = 0; i < x.pixels.length; i++) max = Math.max(max, Math.abs(x.pixels[i]! - y.pixels[i]!))
  return max
}

describe('icons', () => {
  it('the script writes into resources/packaging by default', () => {
    expect(DEFAULT_OUT).toBe(committed)
    expect(SIZES).toEqual([16, 24, 32, 48, 64, 128, 256, 512, 1024])
  })

  it('every PNG size is committed with its dimensions, as 8-bit RGBA with transparency', async () => {
    for (const size of SIZES) {
      const png = await readFile(join(committed, 'icons', `${size}x${size}.png`))
      expect(pngInfo(png)).toEqual({ width: size, height: size, bitDepth: 8, colorType: 6 })
    }
  })

  it('the committed PNGs are what the SVG renders to (regenerate with `npm run icons`)', async () => {
    for (const size of SIZES) {
      const name = `icons/${size}x${size}.png`
      const [mine, theirs] = await Promise.all([readFile(join(committed, name)), readFile(join(fresh, name))])
      // resvg is deterministic per build; allow the last bit of anti-aliasing to differ across CPUs.
      expect(maxChannelDifference(mine, theirs), name).toBeLessThanOrEqual(2)
    }
  })

  it('a changed source image would be caught', async () => {
    const svg = (await readFile(join(root, 'resources/icon.svg'), 'utf8')).replace('#4f46e5', '#e5464f')
    const mine = await readFile(join(committed, 'icons/64x64.png'))
    expect(maxChannelDifference(mine, renderPng(svg, 64))).toBeGreaterThan(2)
  })

  it('icon.icns and icon.ico are exactly what png2icons makes of the committed 1024 px PNG', async () => {
    const largest = await readFile(join(committed, 'icons/1024x1024.png'))
    const [icns, ico] = await Promise.all([
      readFile(join(committed, 'icon.icns')),
      readFile(join(committed, 'icon.ico'))
    ])
    // Where resvg rendered the very same bytes, the regenerated containers must match byte for byte;
    // elsewhere convert the committed PNG again (png2icons is plain JS, the same on every system).
    if ((await readFile(join(fresh, 'icons/1024x1024.png'))).equals(largest)) {
      expect(icns.equals(await readFile(join(fresh, 'icon.icns')))).toBe(true)
      expect(ico.equals(await readFile(join(fresh, 'icon.ico')))).toBe(true)
    } else {
      expect(icns.equals(toIcns(largest))).toBe(true)
      expect(ico.equals(toIco(largest))).toBe(true)
    }
  }, 120_000)

  it('icon.icns parses and holds the retina sizes up to 1024 px as PNGs', async () => {
    const entries = icnsEntries(await readFile(join(committed, 'icon.icns')))
    const sizes = new Map([
      ['ic07', 128],
      ['ic08', 256],
      ['ic09', 512],
      ['ic10', 1024]
    ])
    for (const [id, size] of sizes) {
      const entry = entries.find((e) => e.id === id)
      expect(entry, id).toBeDefined()
      expect(pngInfo(entry!.data)).toMatchObject({ width: size, height: size })
    }
  })

  it('icon.ico parses and holds 16 to 256 px, the large ones as PNG', async () => {
    const entries = icoEntries(await readFile(join(committed, 'icon.ico')))
    const ids = entries.map((e) => e.id)
    for (const size of [16, 24, 32, 48, 64, 128, 256]) expect(ids).toContain(`${size}x${size}`)
    for (const e of entries.filter((e) => e.id === '256x256' || e.id === '128x128')) {
      expect(isPng(e.data)).toBe(true)
      const [w, h] = e.id.split('x').map(Number)
      expect(pngInfo(e.data)).toMatchObject({ width: w, height: h })
    }
  })
})
