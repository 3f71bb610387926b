// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import TagChip from './TagChip.vue'
import { contrastRatio, readableTextColor, relativeLuminance } from './color'

describe('TagChip contrast', () => {
  it('picks dark text on light colours and white text on dark colours', () => {
    expect(readableTextColor('#FFFFFF')).toBe('#000000')
    expect(readableTextColor('#FBCA04')).toBe('#000000')
    expect(readableTextColor('#C5DEF5')).toBe('#000000')
    expect(readableTextColor('#000000')).toBe('#FFFFFF')
    // GitHub's green is just light enough that black text contrasts more (4.7:1 vs 4.4:1).
    expect(readableTextColor('#0E8A16')).toBe('#000000')
    expect(readableTextColor('#B60205')).toBe('#FFFFFF')
    expect(readableTextColor('#5319E7')).toBe('#FFFFFF')
    expect(readableTextColor('#abc')).toBe('#000000')
  })

  it('always reaches at least 4.5:1 for the chosen text colour across the palette', () => {
    for (let r = 0; r < 256; r += 51)
      for (let g = 0; g < 256; g += 51)
        for (let b = 0; b < 256; b += 51) {
          const hex = `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`
          const bg = relativeLuminance(hex) as number
          const fg = relativeLuminance(readableTextColor(hex)) as number
          expect(contrastRatio(bg, fg)).toBeGreaterThanOrEqual(4.5)
        }
  })

  it('renders the background and text colours, normalising the colour', () => {
    const dark = mount(TagChip, { props: { name: 'release', color: '#b60205' } })
    const el = dark.find('[data-testid="tag-chip"]').element as HTMLElement
    expect(dark.text()).toContain('release')
    expect(el.getAttribute('data-color')).toBe('#B60205')
    expect(el.style.backgroundColor.toLowerCase()).toMatch(/#b60205|rgb\(182, 2, 5\)/)
    expect(el.style.color.toLowerCase()).toMatch(/#ffffff|rgb\(255, 255, 255\)/)

    const light = mount(TagChip, { props: { name: 'idea', color: '#FBCA04' } })
    const el2 = light.find('[data-testid="tag-chip"]').element as HTMLElement
    expect(el2.style.color.toLowerCase()).toMatch(/#000000|rgb\(17, 17, 17\)/)

    const bad = mount(TagChip, { props: { name: 'odd', color: 'purple-ish' } })
    expect(bad.find('[data-testid="tag-chip"]').attributes('data-color')).toBe('#808080')
  })
})
