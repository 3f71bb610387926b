import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/support/tempDirs'
import {
  loadWindowState,
  parseWindowState,
  placeWindow,
  WINDOW_SIZES,
  WINDOW_STATE_FILE,
  WindowStateFile,
  type DisplayInfo,
  type Rect
} from './windowState'

const dir = () => tempDir('agent-desk-winstate-')

// A 1920×1080 laptop panel (primary, 25 px menu bar / 40 px taskbar) and a monitor on its left.
const laptop: DisplayInfo = { primary: true, workArea: { x: 0, y: 25, width: 1920, height: 1015 } }
const leftMonitor: DisplayInfo = { workArea: { x: -2560, y: -200, width: 2560, height: 1400 } }
const small: DisplayInfo = { primary: true, workArea: { x: 0, y: 0, width: 1280, height: 680 } }

/** True when the rect lies entirely inside the area. */
const inside = (r: Rect, a: Rect) =>
  r.x >= a.x && r.y >= a.y && r.x + r.width <= a.x + a.width && r.y + r.height <= a.y + a.height

describe('window state file', () => {
  it('saves atomically and loads back', async () => {
    const d = dir()
    expect(loadWindowState(d)).toBeNull()
    const file = new WindowStateFile(d)
    file.save({ x: -2000, y: 40, width: 1400, height: 900, maximized: true })
    await file.saved()
    expect(loadWindowState(d)).toEqual({ x: -2000, y: 40, width: 1400, height: 900, maximized: true })
    file.save({ x: 10, y: 20, width: 1000, height: 700, maximized: false })
    await file.saved()
    expect(loadWindowState(d)).toEqual({ x: 10, y: 20, width: 1000, height: 700, maximized: false })
    // No temporary file left behind.
    expect(readdirSync(d)).toEqual([WINDOW_STATE_FILE])
  })

  it('a save returns before the write; the last of several in a row is the one kept', async () => {
    const d = dir()
    const file = new WindowStateFile(d)
    // A window dragged: a save at each step, faster than files are written.
    for (let x = 0; x <= 300; x += 10) file.save({ x, y: 20, width: 1000, height: 700, maximized: false })
    expect(existsSync(join(d, WINDOW_STATE_FILE))).toBe(false)
    await file.saved()
    expect(loadWindowState(d)?.x).toBe(300)
  })

  it('creates the folder when it is not there yet', async () => {
    const d = join(dir(), 'new', 'userData')
    const file = new WindowStateFile(d)
    file.save({ x: 0, y: 0, width: 1000, height: 700, maximized: false })
    await file.saved()
    expect(loadWindowState(d)?.width).toBe(1000)
  })

  it('treats a missing, damaged or foreign file as no saved state', () => {
    const d = dir()
    const file = join(d, WINDOW_STATE_FILE)
    for (const content of [
      '',
      '{"x": 1, "y":',
      'null',
      '[]',
      '{"x":"1","y":2,"width":1000,"height":700}',
      '{"x":1,"y":2,"width":0,"height":700}',
      '{"x":1,"y":2,"width":-5,"height":700}',
      '{"x":1e308,"y":2,"width":1000,"height":700}',
      '{"x":1,"y":2,"width":1000}'
    ]) {
      writeFileSync(file, content)
      expect(loadWindowState(d), content).toBeNull()
    }
    // A folder where the file should be: still no crash.
    const d2 = dir()
    mkdirSync(join(d2, WINDOW_STATE_FILE))
    expect(loadWindowState(d2)).toBeNull()
  })

  it('a failed save is told by saved(); the next one writes', async () => {
    const d = dir()
    const file = new WindowStateFile(d)
    // A folder where the file goes: the rename fails.
    mkdirSync(join(d, WINDOW_STATE_FILE))
    file.save({ x: 1, y: 2, width: 1000, height: 700, maximized: false })
    await expect(file.saved()).rejects.toThrow()
    expect(readdirSync(d)).toEqual([WINDOW_STATE_FILE])
    rmSync(join(d, WINDOW_STATE_FILE), { recursive: true })
    file.save({ x: 5, y: 5, width: 1100, height: 800, maximized: true })
    await file.saved()
    expect(loadWindowState(d)).toEqual({ x: 5, y: 5, width: 1100, height: 800, maximized: true })
  })

  it('ignores what is not a state instead of writing it', async () => {
    const d = dir()
    const file = new WindowStateFile(d)
    file.save({ x: Number.NaN, y: 0, width: 1000, height: 700, maximized: false })
    await file.saved()
    expect(existsSync(join(d, WINDOW_STATE_FILE))).toBe(false)
    expect(parseWindowState({ x: 1.4, y: 2.6, width: 1000.2, height: 700, maximized: 'yes' })).toEqual({
      x: 1,
      y: 3,
      width: 1000,
      height: 700,
      maximized: false
    })
  })
})

describe('placeWindow', () => {
  it('first start: the default size, centred on the primary display', () => {
    const p = placeWindow(null, [leftMonitor, laptop])
    expect(p).toEqual({
      bounds: { x: 320, y: 123, width: WINDOW_SIZES.width, height: WINDOW_SIZES.height },
      maximized: false
    })
  })

  it('puts the window back where it was when that place is still on a display', () => {
    const saved = { x: 200, y: 100, width: 1400, height: 900, maximized: false }
    expect(placeWindow(saved, [laptop])).toEqual({
      bounds: { x: 200, y: 100, width: 1400, height: 900 },
      maximized: false
    })
  })

  it('negative coordinates on a monitor left of (and above) the primary are kept', () => {
    const saved = { x: -2400, y: -150, width: 1600, height: 1000, maximized: false }
    expect(placeWindow(saved, [laptop, leftMonitor]).bounds).toEqual({
      x: -2400,
      y: -150,
      width: 1600,
      height: 1000
    })
  })

  it('the left monitor is gone: centred on the primary, at the saved size clamped to it', () => {
    const saved = { x: -2400, y: -150, width: 1600, height: 1000, maximized: false }
    const p = placeWindow(saved, [laptop])
    expect(p.bounds).toEqual({ x: 160, y: 33, width: 1600, height: 1000 })
    expect(inside(p.bounds as Rect, laptop.workArea)).toBe(true)
  })

  it('a window whose title bar is off every display (only its lower part showing) is brought back', () => {
    // The top 40 px above the primary's work area on a single display: the title bar cannot be grabbed.
    const saved = { x: 300, y: -40, width: 1200, height: 800, maximized: false }
    const p = placeWindow(saved, [laptop])
    expect(inside(p.bounds as Rect, laptop.workArea)).toBe(true)
    // Only a sliver at the right edge on screen: brought back too.
    const sliver = placeWindow({ x: 1860, y: 100, width: 1200, height: 800, maximized: false }, [laptop])
    expect(inside(sliver.bounds as Rect, laptop.workArea)).toBe(true)
    // But a window mostly on screen with its right part past the edge stays where the user put it.
    expect(
      placeWindow({ x: 1200, y: 100, width: 1200, height: 800, maximized: false }, [laptop]).bounds
    ).toEqual({
      x: 1200,
      y: 100,
      width: 1200,
      height: 800
    })
  })

  it('the resolution shrank: the window is made to fit and moved inside the work area', () => {
    const saved = { x: 600, y: 200, width: 1800, height: 1000, maximized: false }
    const p = placeWindow(saved, [small])
    expect(p.bounds).toEqual({ x: 0, y: 0, width: 1280, height: 680 })
    expect(inside(p.bounds as Rect, small.workArea)).toBe(true)
  })

  it('never goes below the minimum size, even on a work area smaller than it', () => {
    const tiny: DisplayInfo = { primary: true, workArea: { x: 0, y: 0, width: 800, height: 500 } }
    const p = placeWindow({ x: 0, y: 0, width: 400, height: 300, maximized: false }, [tiny])
    expect(p.bounds).toMatchObject({ width: 880, height: 560 })
    expect(placeWindow(null, [tiny]).bounds).toMatchObject({ width: 880, height: 560, x: -40, y: 0 })
    expect(placeWindow({ x: 10, y: 40, width: 100, height: 100, maximized: false }, [laptop]).bounds).toEqual(
      {
        x: 10,
        y: 40,
        width: 880,
        height: 560
      }
    )
  })

  it('a maximised window opens maximised, its restore size on a visible display', () => {
    const saved = { x: -2400, y: -150, width: 1600, height: 1000, maximized: true }
    const onBoth = placeWindow(saved, [laptop, leftMonitor])
    expect(onBoth).toEqual({ bounds: { x: -2400, y: -150, width: 1600, height: 1000 }, maximized: true })
    const monitorGone = placeWindow(saved, [laptop])
    expect(monitorGone.maximized).toBe(true)
    expect(inside(monitorGone.bounds as Rect, laptop.workArea)).toBe(true)
  })

  it('with no display known: only the size', () => {
    expect(placeWindow({ x: 5, y: 5, width: 1000, height: 700, maximized: true }, [])).toEqual({
      bounds: { width: 1000, height: 700 },
      maximized: true
    })
    expect(placeWindow(null, []).bounds).toEqual({ width: 1280, height: 820 })
  })

  it('the primary is the one marked primary, not the first listed', () => {
    const p = placeWindow(null, [leftMonitor, laptop])
    expect(inside(p.bounds as Rect, laptop.workArea)).toBe(true)
  })
})
