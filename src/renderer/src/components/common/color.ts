import { normalizeColor } from '../../../../shared/values'

/** WCAG relative luminance of `#RRGGBB` / `#RGB` (0 = black, 1 = white); null for anything else. */
export function relativeLuminance(color: string): number | null {
  const hex = normalizeColor(color)
  if (!hex) return null
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
}

export function contrastRatio(a: number, b: number): number {
  const [hi, lo] = a > b ? [a, b] : [b, a]
  return (hi + 0.05) / (lo + 0.05)
}

/** The text colour (black or white; one of them always reaches WCAG 4.5:1) that reads best on `background`. */
export function readableTextColor(background: string): '#000000' | '#FFFFFF' {
  const l = relativeLuminance(background)
  if (l === null) return '#000000'
  const dark = relativeLuminance('#000000') ?? 0
  return contrastRatio(l, dark) >= contrastRatio(l, 1) ? '#000000' : '#FFFFFF'
}

/** A colour safe to paint: the normalised value, or the neutral grey for anything unreadable. */
export function safeColor(color: string | undefined | null): string {
  return (color && normalizeColor(color)) || '#808080'
}
