import { describe, expect, it } from 'vitest'
import { benchTable, type BenchFile } from './table'
import { growthRows, interquartileMean, median, meetsGoal, toFigure, type BenchRow } from './types'

describe('benchmark figures', () => {
  it('averages the middle half of frame-bound samples: no jump of a frame, no outlier', () => {
    // Eight keystrokes of one frame (14 ms) and eight of two (30 ms), one of them a GC (90 ms).
    const xs = [14, 14, 15, 14, 14, 15, 14, 14, 30, 31, 30, 30, 30, 31, 30, 90]
    expect(median(xs)).toBe(30)
    expect(interquartileMean(xs)).toBeCloseTo(22.25, 2)
    expect(interquartileMean([5])).toBe(5)
    expect(interquartileMean([])).toBeNaN()
  })

  it('writes every figure with ratio = value / floor and the direction that is better', () => {
    expect(
      toFigure({ id: 'main.agents.list', name: ' main ', value: 900, unit: 'ms', floor: 600, goal: 1.3 })
    ).toEqual({
      id: 'main.agents.list',
      name: 'main',
      value: 900,
      unit: 'ms',
      floor: 600,
      ratio: 1.5,
      better: 'lower',
      goal: 1.3
    })
    const post = toFigure({
      id: 'service.post',
      name: 'post',
      value: 1600,
      unit: 'req/s',
      floor: 5000,
      better: 'higher',
      goal: 0.8
    })
    expect(post.ratio).toBe(0.32)
    expect(post.better).toBe('higher')
    expect(toFigure({ id: 'x', name: 'x', value: 3, unit: 'ms' })).toMatchObject({
      floor: null,
      ratio: null,
      goal: null
    })
  })

  it('judges the goal on the ratio, or on the value for sizes', () => {
    const lower: BenchRow = { name: 'a', value: 140, unit: 'ms', floor: 100, goal: 1.3 }
    expect(meetsGoal(lower)).toBe(false)
    expect(meetsGoal({ ...lower, value: 120 })).toBe(true)
    expect(
      meetsGoal({ name: 's', value: 1600, unit: 'req/s', floor: 2000, better: 'higher', goal: 0.8 })
    ).toBe(true)
    expect(
      meetsGoal({ name: 's', value: 1500, unit: 'req/s', floor: 2000, better: 'higher', goal: 0.8 })
    ).toBe(false)
    const js: BenchRow = { name: 'js', value: 175, unit: 'kB', floor: 69, goal: 150, goalOnValue: true }
    expect(meetsGoal(js)).toBe(false)
    expect(meetsGoal({ ...js, value: 140 })).toBe(true)
    expect(meetsGoal({ name: 'n', value: 1, unit: 'ms' })).toBeUndefined()
  })

  it('derives the growth of the cost per item from 10,000 to 100,000', () => {
    const rows: BenchRow[] = [
      { id: 'scale.cache.agents.cold.1000', name: '', value: 10, unit: 'ms' },
      { id: 'scale.cache.agents.cold.10000', name: '', value: 90, unit: 'ms', floor: 80 },
      { id: 'scale.cache.agents.cold.100000', name: '', value: 1350, unit: 'ms', floor: 1040 },
      { id: 'scale.main.agents.block.10000', name: '', value: 30, unit: 'ms' },
      { id: 'scale.main.agents.block.100000', name: '', value: 300, unit: 'ms' },
      { id: 'scale.main.agents.list.10000', name: '', value: 900, unit: 'ms' }
    ]
    const growth = growthRows(rows)
    expect(growth.map((g) => g.id)).toEqual(['scale.cache.agents.cold.growth'])
    expect(growth[0]?.value).toBeCloseTo(1.5)
    expect(growth[0]?.note).toBe('the floor’s: 1.30×')
    expect(meetsGoal(growth[0] as BenchRow)).toBe(false)
  })

  it('renders two runs as one table with the range of each figure', () => {
    const run = (date: string, value: number, floor: number): BenchFile => ({
      date,
      node: 'v20',
      platform: 'linux x64',
      cpus: '2 × cpu',
      memoryGiB: 24,
      figures: [
        toFigure({ id: 'start.first', name: 'start', value, unit: 'ms', floor, goal: 1.3 }),
        toFigure({
          id: 'renderer.js.gzip',
          name: 'js',
          value: 175,
          unit: 'kB',
          floor: 69,
          goal: 150,
          goalOnValue: true
        })
      ]
    })
    const table = benchTable([
      run('2026-11-23T09:00:00.000Z', 1000, 400),
      run('2026-11-23T21:00:00.000Z', 800, 400)
    ])
    expect(table).toContain('2026-11-23 09:00 UTC and 2026-11-23 21:00 UTC')
    expect(table).toContain('| `start.first` | 800–1000 ms | 400 ms | 2.00–2.50× | ≤ 1.3× |')
    expect(table).toContain('| `renderer.js.gzip` | 175 kB | 69.0 kB | 2.54× | ≤ 150 kB |')
  })
})
